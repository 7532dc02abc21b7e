import { z } from 'zod';
import { ContractErrorSchema } from './errors';
import { ApiGenerationSchema, OutputNamingSchema, OutputSelectionSchema } from './jobs';

const Lang = z.string().trim().toLowerCase().min(1).max(16);

/** What a watched folder does with each new file: the batch settings, plus what happens afterwards. */
export const WatchPresetSchema = z
  .object({
    to: z.array(Lang).min(1, 'name at least one target language').max(100),
    from: Lang.default('auto'),
    studio: z.boolean().default(false),
    api: ApiGenerationSchema.default('v2'),
    outputs: OutputSelectionSchema.default('default'),
    /** Null: a `dubbed` folder inside the watched one (never re-watched). */
    outDir: z.string().min(1).max(4096).nullable().default(null),
    naming: OutputNamingSchema.default('suffix'),
    /** Move the original to `done/` once every language completed (`failed/` when one failed). */
    after: z.enum(['leave', 'move']).default('leave'),
    recursive: z.boolean().default(false),
    /** A batch found at once that would cost more than this waits for approval; null = no limit. */
    creditLimit: z.number().int().min(0).nullable().default(null),
    uploadOnce: z.union([z.boolean(), z.literal('auto')]).default('auto'),
  })
  .strict();
export type WatchPreset = z.infer<typeof WatchPresetSchema>;
export type WatchPresetInput = z.input<typeof WatchPresetSchema>;

export const WatchCountsSchema = z.object({
  /** Seen but not yet queued: still growing, or rechecked after a problem. */
  waiting: z.number().int(),
  working: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  /** Gave up waiting on a file (unreadable, never stopped growing): a person has to look. */
  attention: z.number().int(),
  /** Over the folder's credit limit: waits for approval. */
  awaitingApproval: z.number().int(),
});
export type WatchCounts = z.infer<typeof WatchCountsSchema>;

export const WatchFolderSchema = z.object({
  id: z.number().int(),
  path: z.string(),
  preset: WatchPresetSchema,
  /** Grows with every preset change: a file is dubbed once per content and preset version. */
  presetVersion: z.number().int(),
  paused: z.boolean(),
  status: z.enum(['starting', 'watching', 'paused', 'unavailable']),
  /** Why it is unavailable (drive unplugged, share down...); null otherwise. */
  statusMessage: z.string().nullable(),
  lastActivityAt: z.string().nullable(),
  counts: WatchCountsSchema,
  /** Credits one hour of video costs with this preset (every language, studio included). */
  creditsPerHour: z.number(),
});
export type WatchFolder = z.infer<typeof WatchFolderSchema>;

export const WatchFileSchema = z.object({
  folderId: z.number().int(),
  path: z.string(),
  status: z.enum(['settling', 'waiting', 'queued', 'done', 'failed', 'attention', 'awaiting-approval']),
  problem: ContractErrorSchema.nullable(),
  jobIds: z.array(z.number().int()),
  firstSeenAt: z.string(),
  /** When it will be looked at again (settling or waiting after a problem). */
  nextCheckAt: z.string().nullable(),
});
export type WatchFile = z.infer<typeof WatchFileSchema>;

export const AddWatchFolderSchema = z
  .object({ path: z.string().min(1).max(4096), preset: WatchPresetSchema })
  .strict();
export const UpdateWatchFolderSchema = z
  .object({
    id: z.number().int().positive(),
    preset: WatchPresetSchema.optional(),
    paused: z.boolean().optional(),
  })
  .strict();
export const WatchFolderIdSchema = z.object({ id: z.number().int().positive() }).strict();
export const WatchFilesRequestSchema = z
  .object({
    id: z.number().int().positive(),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
export const WatchFilesPageSchema = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  files: z.array(WatchFileSchema),
});
export const ReprocessWatchFileSchema = z
  .object({ id: z.number().int().positive(), path: z.string().min(1).max(4096) })
  .strict();
