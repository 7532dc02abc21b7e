import { z } from 'zod';
import { OUTPUT_TYPES, type OutputType } from '../api/common';
import { LoudnessTargetSchema, PackageFormatSchema, QcSchema } from './deliver';
import { ContractErrorSchema } from './errors';

export const API_GENERATIONS = ['v2', 'v1', 'legacy'] as const;
export type ApiGeneration = (typeof API_GENERATIONS)[number];
export const ApiGenerationSchema = z.enum(API_GENERATIONS);

/** What a user sees. Terminal states are exactly completed, failed and canceled. */
export const JOB_STATES = [
  'queued',
  'uploading',
  'submitted',
  'processing',
  'downloading',
  'completed',
  'failed',
  'canceled',
  'paused',
] as const;
export type JobState = (typeof JOB_STATES)[number];
export const JobStateSchema = z.enum(JOB_STATES);
export const TERMINAL_STATES: readonly JobState[] = ['completed', 'failed', 'canceled'];
export const isTerminal = (s: JobState): boolean => TERMINAL_STATES.includes(s);
/** States where bytes move or the service works on the dub. */
export const WORKING_STATES: readonly JobState[] = ['uploading', 'submitted', 'processing', 'downloading'];

export const OutputTypeSchema = z.enum(OUTPUT_TYPES);
export const OutputSelectionSchema = z.union([
  z.literal('default'),
  z.literal('all'),
  z.array(OutputTypeSchema).min(1),
]);
export type OutputSelection = z.infer<typeof OutputSelectionSchema>;

/**
 * What goes to the service for a video: `audio` (its sound alone; the dubbed video is then made here from
 * the source's own picture and the dubbed sound) whenever ffmpeg is found and the file has a picture and a
 * sound, else the whole file; `file`: always the whole file, the service's own dubbed video fetched.
 */
export const SendSchema = z.enum(['audio', 'file']);
export type Send = z.infer<typeof SendSchema>;

export const OutputNamingSchema = z.enum(['suffix', 'folders']);
export type OutputNaming = z.infer<typeof OutputNamingSchema>;

/** Files Dubdesk makes here from a dub's outputs: the SubRip twin of its WebVTT subtitles. */
export const DERIVED_OUTPUT_TYPES = ['translated_subtitle_srt'] as const;
export type DerivedOutputType = (typeof DERIVED_OUTPUT_TYPES)[number];
/** A job's file: an output the service made, or one made here from it. */
export const JobOutputTypeSchema = z.union([OutputTypeSchema, z.enum(DERIVED_OUTPUT_TYPES)]);
export type JobOutputType = z.infer<typeof JobOutputTypeSchema>;
/** Whether a job's file is one the service made (not one made here from it). */
export const isServiceOutput = <T extends { type: JobOutputType }>(o: T): o is T & { type: OutputType } =>
  !(DERIVED_OUTPUT_TYPES as readonly string[]).includes(o.type);

export const JobOutputSchema = z.object({
  type: JobOutputTypeSchema,
  path: z.string(),
  bytes: z.number(),
});
export type JobOutput = z.infer<typeof JobOutputSchema>;

/**
 * A job's files, each once: identical content is kept once, so two output types (the service's `original`
 * and `original_mp4` of an MP4 upload) may be one file.
 */
export function jobFiles(outputs: readonly JobOutput[]): JobOutput[] {
  const seen = new Set<string>();
  return outputs.filter((o) => !seen.has(o.path) && seen.add(o.path));
}

/** Why a live job is not moving right now, and when it will try again. */
export const WaitingSchema = z.object({
  code: z.enum([
    'offline',
    'retry',
    'credits',
    'auth',
    'disk',
    'queue-paused',
    'other-service',
    'pausing',
    /** The dub is done (and charged) at the service; its download waits for the job or the queue to resume. */
    'download-paused',
    /**
     * Waits for another job, and is woken when that one moves on (never `retryAt`): upload once (this
     * language is made from the service's copy once the first language's dub is done), or a copy waiting
     * for the dub of its content.
     */
    'first-upload',
    /** The source file changed while it was being sent (still being written?) or its disk stopped answering. */
    'source',
  ]),
  message: z.string(),
  /** ISO time of the next attempt, when one is scheduled. */
  retryAt: z.string().nullable(),
  /** Attempts so far at this step (1 after the first failure). */
  attempt: z.number().int(),
});
export type Waiting = z.infer<typeof WaitingSchema>;

/** A job as every face sees it: never the API key, never a signed link. */
export const JobViewSchema = z.object({
  id: z.number().int(),
  source: z.string(),
  sourceKind: z.enum(['file', 'url']),
  sourceName: z.string(),
  destLang: z.string(),
  sourceLang: z.string(),
  api: ApiGenerationSchema,
  studio: z.boolean(),
  state: JobStateSchema,
  remoteId: z.string().nullable(),
  /** 0..100 for the whole job (shared/progress.ts), never back while unfinished; `state` names the phase. */
  progress: z.number(),
  waiting: WaitingSchema.nullable(),
  error: ContractErrorSchema.nullable(),
  durationSeconds: z.number().nullable(),
  estimatedCredits: z.number().nullable(),
  measuredDuration: z.number().nullable(),
  /** Credits the service charged for this dub (also for a dub that completed but failed to download). */
  creditsCharged: z.number().nullable(),
  outDir: z.string(),
  outputs: z.array(JobOutputSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  /** Transfer speed and time left while uploading or downloading; null otherwise. */
  bytesPerSecond: z.number().nullable(),
  etaSeconds: z.number().nullable(),
  /** The watched folder that queued it, if any. */
  watchFolderId: z.number().int().nullable(),
  /** Which audio track of the source is dubbed (see AudioTrackSchema); absent: `first`. */
  audioTrack: z.string().optional(),
  /**
   * The result its files were linked from (e.g. `talk.es.mp4`) when its content was dubbed already: a copy
   * under a new name gets its own result names at no charge. Null (or absent) when it was dubbed itself.
   */
  copiedFrom: z.string().nullable().optional(),
  /**
   * QC of the finished dub, computed on this machine from what was downloaded: null until it has run (or
   * for a job that is not completed). A failed QC hides nothing: the files stay where they are.
   */
  qc: QcSchema.nullable().optional(),
  /**
   * Completed, and what is made here from its downloads (QC, the SubRip file) is still being made: its
   * `outputs` are not final yet (the SubRip is added, the WebVTT dropped when SubRip alone was asked for).
   */
  delivering: z.boolean().optional(),
});
export type JobView = z.infer<typeof JobViewSchema>;

export const JobHistoryEntrySchema = z.object({
  at: z.string(),
  from: JobStateSchema.nullable(),
  to: JobStateSchema,
  event: z.string(),
  reason: z.string().nullable(),
});
export type JobHistoryEntry = z.infer<typeof JobHistoryEntrySchema>;

export const JobDetailSchema = JobViewSchema.extend({
  history: z.array(JobHistoryEntrySchema),
  outputsWanted: OutputSelectionSchema,
  attempts: z.number().int(),
  /** Dubs this job made on the service that failed or were given up (kept to never adopt them again). */
  abandonedRemoteIds: z.array(z.string()),
  sourceBytes: z.number().nullable(),
  sourceType: z.string().nullable(),
  /** What this job sends: its sound alone, or the whole file (absent from older engines: the whole file). */
  send: SendSchema.optional(),
});
export type JobDetail = z.infer<typeof JobDetailSchema>;

/** Which jobs a list or a bulk action covers. Empty filter = every job. */
export const JobFilterSchema = z
  .object({
    states: z.array(JobStateSchema).optional(),
    /** Case-insensitive match on the source name or path. */
    search: z.string().max(500).optional(),
    /**
     * The history instead of the live list: finished jobs that aged out of it (older than the history
     * setting) or were cleared from it. Still searchable, never dubbed or paid for again.
     */
    history: z.boolean().optional(),
    ids: z.array(z.number().int().positive()).max(100_000).optional(),
    source: z.string().optional(),
    /** Jobs whose source is this path, or that wrote it as a finished output (a face checks a path is the user's). */
    path: z.string().max(4096).optional(),
    watchFolderId: z.number().int().positive().optional(),
  })
  .strict();
export type JobFilter = z.infer<typeof JobFilterSchema>;

export const MAX_PAGE = 500;

export const PageRequestSchema = z
  .object({
    filter: JobFilterSchema.default({}),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(MAX_PAGE).default(100),
    /**
     * `added`: by id, the order jobs were added in (stable: a move never reorders it). `queue`: the queue's
     * order, the one the worker takes uploads in and the window shows (`move` changes it).
     */
    order: z.enum(['added', 'queue']).default('added'),
  })
  .strict();
export type PageRequest = z.input<typeof PageRequestSchema>;

export const JobPageSchema = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  jobs: z.array(JobViewSchema),
});
export type JobPage = z.infer<typeof JobPageSchema>;

/**
 * A source's one file with every language: `waiting` for its languages to finish, `making` it now, `done`
 * (at `path`), or `failed` (with `error`; the languages' own files are untouched).
 */
export const PackageViewSchema = z.object({
  format: PackageFormatSchema.exclude(['none']),
  state: z.enum(['waiting', 'making', 'done', 'failed']),
  path: z.string().nullable(),
  /** The dubbed languages in it (done), or that will be (waiting, making). */
  languages: z.array(z.string()),
  error: ContractErrorSchema.nullable(),
  updatedAt: z.string(),
});
export type PackageView = z.infer<typeof PackageViewSchema>;

/** One row of the queue: a source with one job per language (only the jobs the filter matched). */
export const SourceRowSchema = z.object({
  source: z.string(),
  sourceKind: z.enum(['file', 'url']),
  sourceName: z.string(),
  durationSeconds: z.number().nullable(),
  /** The jobs of the source as it is now (its newest content). */
  jobs: z.array(JobViewSchema),
  /** Jobs of earlier versions of the file (other content at the same path), shown apart from `jobs`. */
  earlier: z.array(JobViewSchema),
  /** Its package, when one was asked for (absent or null: none). */
  package: PackageViewSchema.nullable().optional(),
});
export type SourceRow = z.infer<typeof SourceRowSchema>;

export const SourcePageSchema = z.object({
  /** Sources matching the filter (rows), not jobs. */
  total: z.number().int(),
  offset: z.number().int(),
  sources: z.array(SourceRowSchema),
});
export type SourcePage = z.infer<typeof SourcePageSchema>;

const selectionFields = {
  ids: z.array(z.number().int().positive()).max(100_000).optional(),
  filter: JobFilterSchema.optional(),
};
const oneOf = (s: { ids?: unknown; filter?: unknown }) => (s.ids === undefined) !== (s.filter === undefined);

/** Bulk actions (retry, cancel, pause, resume, clear) take ids, or a filter, not both. */
export const SelectionSchema = z
  .object(selectionFields)
  .strict()
  .refine(oneOf, { message: 'give either ids or a filter' });
export type Selection = z.infer<typeof SelectionSchema>;

/**
 * Retry, optionally into another folder (absolute): the results a job already saved move there with it,
 * so all of a job's files are in one folder.
 */
export const RetrySchema = z
  .object({ ...selectionFields, outDir: z.string().min(1).max(4096).optional() })
  .strict()
  .refine(oneOf, { message: 'give either ids or a filter' });
export type RetryRequest = z.infer<typeof RetrySchema>;

export const ActionResultSchema = z.object({
  /** Jobs the action applied to. */
  changed: z.array(z.number().int()),
  /** Jobs it did not apply to, each with why (already completed, no such job...). */
  skipped: z.array(z.object({ id: z.number().int(), error: ContractErrorSchema })),
  /**
   * Cancel: the jobs whose dub the service had already started, or was being asked to make (a create in
   * flight: each one's history then says whether it was made). It has no way to stop a dub and charges
   * when one completes, so these may still be charged; each one's history records it if so.
   */
  startedAtService: z.array(z.number().int()).optional(),
  /**
   * Retry into another folder: completed jobs whose results were moved there. They are not dubbed again
   * (nothing is charged); they stay completed.
   */
  moved: z.array(z.number().int()).optional(),
});
export type ActionResult = z.infer<typeof ActionResultSchema>;

export const JobIdSchema = z.object({ id: z.number().int().positive() }).strict();

/**
 * "Package now": one file with every finished language of a source, made (again) at once, in the format
 * asked for (default: the one its batch chose, else MKV). Costs nothing: no call to the service.
 */
export const PackageNowSchema = z
  .object({
    source: z.string().min(1).max(4096),
    format: PackageFormatSchema.exclude(['none']).optional(),
  })
  .strict();
export type PackageNowRequest = z.infer<typeof PackageNowSchema>;

/**
 * Finished dubs judged again against another loudness target, from the measurement their QC stored:
 * nothing is read again, sent or charged. Their QC's target, loudness problem and verdict change, and the
 * target is theirs from then on.
 */
export const JudgeQcSchema = z
  .object({
    ids: z.array(z.number().int().positive()).min(1).max(100_000),
    loudness: LoudnessTargetSchema,
  })
  .strict();
export type JudgeQcRequest = z.infer<typeof JudgeQcSchema>;

export const LogLineSchema = z.object({
  at: z.string(),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  message: z.string(),
  jobId: z.number().int().nullable(),
});
export type LogLine = z.infer<typeof LogLineSchema>;
