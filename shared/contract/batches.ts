import { z } from 'zod';
import { AudioTrackInfoSchema, audioTrackField } from './audio-track';
import { deliverFields } from './deliver';
import { ContractErrorSchema } from './errors';
import { BudgetViewSchema } from './spending';
import { ApiGenerationSchema, OutputNamingSchema, OutputSelectionSchema, SendSchema } from './jobs';
import { LanguageCodeSchema, languageListSchema } from './language-codes';

/**
 * What a face may ask the engine to estimate or queue: sources (files, folders, http(s) URLs) x target
 * languages. Parsed at every boundary with this one schema, so every face refuses exactly the same.
 */
export const BatchRequestSchema = z
  .object({
    inputs: z
      .array(z.string().min(1, 'a source path or URL is empty').max(4096))
      .min(1, 'name at least one file, folder or URL')
      .max(100_000),
    to: languageListSchema({ min: 1 }),
    from: LanguageCodeSchema.default('auto'),
    studio: z.boolean().default(false),
    api: ApiGenerationSchema.default('v2'),
    /** Where the results go; default: each source's own folder. */
    outDir: z.string().min(1).max(4096).optional(),
    outputs: OutputSelectionSchema.default('default'),
    /** `Movie.es.mp4` beside each other, or one folder per language (`es/Movie.mp4`). */
    naming: OutputNamingSchema.default('suffix'),
    /**
     * v2: upload each file once for its first language, then make the other languages from the service's
     * copy (`original` link as `source_url`). `auto`: on for large files going to several languages.
     */
    uploadOnce: z.union([z.boolean(), z.literal('auto')]).default('auto'),
    /**
     * A video's sound alone where it can be (see SendSchema), or always the whole file. Absent: `audio`, or
     * what DUBDESK_SEND says where the engine runs.
     */
    send: SendSchema.optional(),
    /**
     * Which of each source's audio tracks is dubbed (see AudioTrackSchema): part of the dub's identity, so
     * another track of the same file is another dub, and the same track chosen twice is paid once.
     */
    audioTrack: audioTrackField,
    /**
     * What is handed on besides each language's files: one file with every language (`package`), the
     * subtitle formats (`subtitles`), the package's default sound (`defaultAudio`), and the loudness target
     * QC checks each dub against (`loudness`). None of it is paid for.
     */
    ...deliverFields,
  })
  .strict();
export type BatchRequest = z.infer<typeof BatchRequestSchema>;
export type BatchRequestInput = z.input<typeof BatchRequestSchema>;

export const AddRequestSchema = BatchRequestSchema.extend({
  /** Queue even when the estimate is over the credit balance. */
  force: z.boolean().default(false),
  /** Dub again what was already dubbed with the same settings (pays again). */
  again: z.boolean().default(false),
}).strict();
export type AddRequest = z.infer<typeof AddRequestSchema>;
export type AddRequestInput = z.input<typeof AddRequestSchema>;

/**
 * "Dub again" of finished jobs: each dubbed once more with its own choices as the engine stored them (what
 * it sends, its outputs, naming, package, subtitle formats, default sound, loudness target), charged again.
 * `outDir`: into another folder instead of the job's own.
 */
export const DubAgainSchema = z
  .object({
    ids: z.array(z.number().int().positive()).min(1, 'name at least one job').max(10_000),
    outDir: z.string().min(1).max(4096).optional(),
    /** Queue even when the cost is over the credit balance or the monthly budget. */
    force: z.boolean().default(false),
  })
  .strict();
export type DubAgainRequest = z.infer<typeof DubAgainSchema>;

export const FreeDubSchema = z.object({
  lang: z.string(),
  /** `made`: a canceled job's dub the service made; adding the file again retries it, fetching that dub. */
  why: z.enum(['copy', 'done', 'queued', 'paid', 'made']),
  /** For a copy: the name of the file whose dub it takes. */
  of: z.string().nullable(),
});
export type FreeDub = z.infer<typeof FreeDubSchema>;

export const FileEstimateSchema = z.object({
  /** What the user gave (a file, a file found in a folder, or a URL). */
  input: z.string(),
  name: z.string(),
  kind: z.enum(['video', 'audio', 'url']).nullable(),
  durationSeconds: z.number().nullable(),
  bytes: z.number().nullable(),
  /** Credits for one language (studio included); null when the length is unknown or the file is refused. */
  creditsPerLanguage: z.number().nullable(),
  /**
   * What this file adds to the batch's total, all its languages together (studio included): 0 for a copy or
   * a file already dubbed; null when its length is unknown or the file is refused.
   */
  credits: z.number().nullable(),
  /**
   * Its languages that add nothing, and why: a copy (of `of`), already dubbed, already queued, already paid,
   * its dub already made.
   */
  free: z.array(FreeDubSchema),
  /** Why this file will not be queued; null when it is fine. */
  problem: ContractErrorSchema.nullable(),
  /**
   * What goes to the service for each of its languages: its sound alone (`bytes` about what the extracted
   * sound weighs) or the whole file. Null for a link or a refused file.
   */
  sends: z
    .object({
      what: SendSchema,
      bytes: z.number(),
      /** Why the whole file goes though the sound alone was asked for (no ffmpeg, no picture…). */
      why: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /**
   * The file's audio tracks, in its order, where they were read (a video's streams, or every file's when a
   * track other than the first was asked for); absent when not read.
   */
  audioTracks: z.array(AudioTrackInfoSchema).optional(),
});
export type FileEstimate = z.infer<typeof FileEstimateSchema>;

export const DoneBeforeSchema = z.object({
  jobId: z.number().int(),
  source: z.string(),
  destLang: z.string(),
  outputs: z.array(z.string()),
});
export type DoneBefore = z.infer<typeof DoneBeforeSchema>;

export const EstimateSchema = z.object({
  files: z.array(FileEstimateSchema),
  languages: z.array(z.string()),
  studio: z.boolean(),
  /** Jobs that would be queued: good files x languages, minus those already queued or done. */
  jobs: z.number().int(),
  credits: z.number(),
  /** Jobs whose length cannot be known before the service measures it (URL sources). */
  unknownLengthJobs: z.number().int(),
  /** Null when the balance cannot be read now (offline). */
  balance: z.number().nullable(),
  /** The balance once what is queued and not yet charged, then this batch, are charged (may be negative). */
  balanceAfter: z.number().nullable(),
  /** The balance cannot pay for what is queued and this batch: `add` refuses it without `force`. */
  overBalance: z.boolean(),
  /**
   * The monthly budget cannot take what this month charged, what is queued, and this batch: `add` refuses it
   * without `force`. `budgetLeft`: what the budget still allows before this batch (null: no budget).
   */
  overBudget: z.boolean().default(false),
  budgetLeft: z.number().nullable().default(null),
  /** The monthly budget before this batch, for saying every number (null: no budget). */
  budget: BudgetViewSchema.nullable().default(null),
  /** Source x language pairs already dubbed with these settings: skipped unless `again`. */
  alreadyDone: z.array(DoneBeforeSchema),
  /** Source x language pairs already in the queue: not added twice. */
  alreadyQueued: z.array(z.number().int()),
  /**
   * Upload once (v2): `files` of the batch's `outOf` files (those to be uploaded at all) are uploaded once for
   * all their languages, sending `bytesSaved` fewer bytes.
   */
  uploadOnce: z.object({
    enabled: z.boolean(),
    bytesSaved: z.number(),
    files: z.number().int(),
    outOf: z.number().int(),
  }),
  /**
   * What the batch sends to the service, once per job: `bytes` with the audio path where it applies,
   * `wholeBytes` the whole files; `notice` says once why no sound alone is sent at all (no ffmpeg).
   * `wholeOverLimit`: files sent as sound alone whose whole file is over the generation's upload limit
   * (it could not have been sent at all, so there is no "instead of"); `api` names that generation.
   */
  sends: z
    .object({
      bytes: z.number(),
      wholeBytes: z.number(),
      audioFiles: z.number().int(),
      wholeOverLimit: z.number().int().default(0),
      api: ApiGenerationSchema.optional(),
      notice: z.string().nullable(),
    })
    .optional(),
});
export type Estimate = z.infer<typeof EstimateSchema>;

export const AddResultSchema = z.object({
  added: z.array(z.number().int()),
  alreadyQueued: z.array(z.number().int()),
  /** Failed jobs of the same source and language, queued again (a dub already made is not paid twice). */
  retried: z.array(z.number().int()),
  alreadyDone: z.array(DoneBeforeSchema),
  refused: z.array(z.object({ input: z.string(), error: ContractErrorSchema })),
  credits: z.number(),
  unknownLengthJobs: z.number().int(),
  balance: z.number().nullable(),
  /** Said once when the sound alone was asked for and cannot be sent at all (no ffmpeg found). */
  notice: z.string().nullable().optional(),
  /** Credits past the monthly budget this batch goes, added anyway (`force`); 0 when within it or no budget. */
  pastBudgetBy: z.number().default(0),
});
export type AddResult = z.infer<typeof AddResultSchema>;
