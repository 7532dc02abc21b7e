import { z } from 'zod';
import { ServiceModeSchema } from './account';
import { ApiGenerationSchema, OutputSelectionSchema } from './jobs';
import { LanguageCodeSchema, languageListSchema } from './language-codes';
import { MAX_RATE_BYTES, MIN_RATE_BYTES } from '../rates';
import { SendWindowSchema } from '../schedule';
import { ServiceAddressSchema } from './service-address';

/** Uploads (and downloads) at once: the most the settings allow. */
export const MAX_CONCURRENCY = 16;

const Lang = LanguageCodeSchema;

/** A transfer cap in bytes per second: at least MIN_RATE_BYTES, at most 10 GiB/s. */
export const RateSchema = z
  .number()
  .int()
  .min(MIN_RATE_BYTES, `a cap below ${MIN_RATE_BYTES / 1024} KiB/s would stall transfers`)
  .max(MAX_RATE_BYTES, `a cap above ${MAX_RATE_BYTES / 1024 ** 3} GiB/s is past any line's speed`);
/** The largest monthly budget: more credits than any account holds, so past it is a typo. */
export const MAX_BUDGET = 1e12;
export const BudgetSchema = z
  .number()
  .int('a budget is a whole number of credits')
  .min(0, 'a budget cannot be negative')
  .max(MAX_BUDGET, `a budget is at most ${MAX_BUDGET.toLocaleString('en-US')} credits`);

/**
 * Where the API key goes: the OS credential store (Keychain, Credential Manager, Secret Service) when the
 * system has one; otherwise a file only the user can read, which a desktop face asks the user to agree to.
 */
export const KeyStorageSchema = z.object({
  store: z.enum(['os', 'file']),
  /** Why the OS credential store is not used, in words (none on this system); null when it is, or not tried. */
  osUnavailable: z.string().nullable(),
  /** Saving a key needs the user's agreement to the file first: send `allowFileKeyStore: true` with it. */
  needsConsent: z.boolean(),
});
export type KeyStorage = z.infer<typeof KeyStorageSchema>;

/** Settings every face shows and edits. The API key is write-only: only whether one is set is shown. */
/** The longest a finished job may stay in the live list: ten years. */
export const MAX_HISTORY_DAYS = 3650;
/** Finished jobs older than this leave the live list for the history unless the user chose otherwise. */
export const DEFAULT_HISTORY_DAYS = 30;

export const SettingsSchema = z.object({
  service: z.object({
    /** `sandbox`: the built-in simulator (no account needed); `service`: the real service. */
    mode: ServiceModeSchema,
    /** False on a first run: nothing chosen yet (the sandbox is only the fallback). */
    configured: z.boolean(),
    baseUrl: z.string().nullable(),
    legacyUrl: z.string().nullable(),
    apiKeySet: z.boolean(),
    /** The last four characters of the key, to tell keys apart. */
    apiKeyHint: z.string().nullable(),
    /**
     * A key is stored, but it was entered for this other address (an origin) and is not sent to the one set
     * now: the user must enter it again for this one. Absent or null otherwise.
     */
    keyEnteredFor: z.string().nullable().optional(),
    /**
     * The origins the stored key was entered for (it is sent to these only), whatever the mode: a form going
     * back to one of them needs no key typed again. Absent when no key is stored.
     */
    keyOrigins: z.array(z.string()).optional(),
    /** Where the key is kept: the OS credential store, a file only the user can read, or the environment. */
    keyStore: z.enum(['os', 'file', 'env']).nullable(),
    /** Where a key saved now would go, and whether the user must agree first (absent: the face cannot tell). */
    keyStorage: KeyStorageSchema.optional(),
  }),
  /** Uploads at once, and downloads at once. */
  concurrency: z.number().int().min(1).max(MAX_CONCURRENCY),
  pollIntervalSeconds: z.number().min(0.05).max(600),
  defaults: z.object({
    languages: languageListSchema(),
    from: Lang,
    studio: z.boolean(),
    api: ApiGenerationSchema,
    outputs: OutputSelectionSchema,
    /** Null: beside each source. */
    outDir: z.string().nullable(),
    uploadOnce: z.union([z.boolean(), z.literal('auto')]),
  }),
  /**
   * The "Save to" of the last batch added from this face (each face keeps its own; the desktop window's
   * folders need not be the browser's): "" for beside each source, null before the first.
   */
  lastOutDir: z.string().nullable(),
  favouriteLanguages: languageListSchema(),
  /** Most recent first. */
  recentLanguages: z.array(Lang),
  lastBatchLanguages: z.array(Lang),
  notifyWhenDone: z.boolean(),
  /** Finished jobs older than this many days leave the live list for the history (still searchable). */
  historyAfterDays: z.number().int().min(1).max(MAX_HISTORY_DAYS),
  /** Caps in bytes per second, all transfers of a kind together; null: as fast as the line goes. */
  maxUploadRate: RateSchema.nullable().default(null),
  maxDownloadRate: RateSchema.nullable().default(null),
  /** New work is sent only inside this window (local time); null: any time. */
  sendWindow: SendWindowSchema.nullable().default(null),
  /** Credits a calendar month may spend; `add` and watched folders hold work past it. Null: no budget. */
  monthlyBudget: BudgetSchema.nullable().default(null),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const SettingsPatchSchema = z
  .object({
    service: z
      .object({
        mode: ServiceModeSchema.optional(),
        baseUrl: ServiceAddressSchema.nullable().optional(),
        legacyUrl: ServiceAddressSchema.nullable().optional(),
        /** Null forgets the key. */
        apiKey: z.string().trim().min(1).max(4096).nullable().optional(),
        /** The user agrees (true) or no longer agrees (false) to keep the key in a file only they can read. */
        allowFileKeyStore: z.boolean().optional(),
      })
      .strict()
      .optional(),
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).optional(),
    pollIntervalSeconds: z.number().min(0.05).max(600).optional(),
    defaults: SettingsSchema.shape.defaults.partial().strict().optional(),
    favouriteLanguages: languageListSchema().optional(),
    /** Remembers this face's "Save to" (an absolute folder, or "" for beside each source). */
    lastOutDir: z.string().max(4096).optional(),
    notifyWhenDone: z.boolean().optional(),
    historyAfterDays: z.number().int().min(1).max(MAX_HISTORY_DAYS).optional(),
    maxUploadRate: RateSchema.nullable().optional(),
    maxDownloadRate: RateSchema.nullable().optional(),
    sendWindow: SendWindowSchema.nullable().optional(),
    monthlyBudget: BudgetSchema.nullable().optional(),
  })
  .strict();
export type SettingsPatch = z.input<typeof SettingsPatchSchema>;
