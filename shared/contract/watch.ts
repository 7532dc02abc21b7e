import { z } from 'zod';
import {
  DefaultAudioSchema,
  LoudnessTargetSchema,
  PackageFormatSchema,
  SubtitleFormatsSchema,
} from './deliver';
import { AudioTrackSchema } from './audio-track';
import { ContractErrorSchema } from './errors';
import { ApiGenerationSchema, OutputNamingSchema, OutputSelectionSchema, SendSchema } from './jobs';
import { LanguageCodeSchema, languageListSchema } from './language-codes';

const Lang = LanguageCodeSchema;
const Path = z.string().min(1).max(4096);

/**
 * The preset's fields without defaults: a full preset fills them in (WatchPresetSchema), a patch leaves
 * out what it does not change (WatchPresetPatchSchema).
 */
const presetFields = {
  to: languageListSchema({ min: 1 }),
  from: Lang,
  studio: z.boolean(),
  api: ApiGenerationSchema,
  outputs: OutputSelectionSchema,
  /**
   * Where the results go. Null: a `dubbed` folder inside the watched one. Results inside the watched folder
   * are never taken as new files.
   */
  outDir: Path.nullable(),
  naming: OutputNamingSchema,
  /**
   * `move`: once no language of a file is left to dub, the original moves to `done/` (every language
   * completed) or `failed/` (one failed), keeping its subfolder. `done/` and `failed/` are never watched.
   */
  after: z.enum(['leave', 'move']),
  /** Take files in subfolders too (off: only the folder's own files). */
  recursive: z.boolean(),
  /**
   * Credits the folder may spend by itself in any hour. A batch of new files that would go over it waits
   * in `awaiting-approval` (with every file found after it) until `approveWatchFolder`. Null: no limit (a
   * batch over the account's balance still waits for approval).
   */
  creditLimit: z.number().int().min(0).nullable(),
  uploadOnce: z.union([z.boolean(), z.literal('auto')]),
  /** A video's sound alone where it can be, or always the whole file (see SendSchema). */
  send: SendSchema,
  /** Which audio track of each file is dubbed (see AudioTrackSchema). */
  audioTrack: AudioTrackSchema,
  /**
   * How changes are noticed. `auto`: file-system events, or polling where events are unreliable (network
   * shares, removable drives: see WatchFolder.pollReason); `always`/`never` force it.
   */
  polling: z.enum(['auto', 'always', 'never']),
  /** One file with every language per source (see BatchRequest): delivery, not a dub setting. */
  package: PackageFormatSchema,
  subtitles: SubtitleFormatsSchema,
  defaultAudio: DefaultAudioSchema,
  loudness: LoudnessTargetSchema,
};

/** What a watched folder does with each new file: the batch settings, plus what happens afterwards. */
export const WatchPresetSchema = z
  .object({
    to: presetFields.to,
    from: presetFields.from.default('auto'),
    studio: presetFields.studio.default(false),
    api: presetFields.api.default('v2'),
    outputs: presetFields.outputs.default('default'),
    outDir: presetFields.outDir.default(null),
    naming: presetFields.naming.default('suffix'),
    after: presetFields.after.default('leave'),
    recursive: presetFields.recursive.default(false),
    creditLimit: presetFields.creditLimit.default(null),
    uploadOnce: presetFields.uploadOnce.default('auto'),
    /** Absent: `audio` (or DUBDESK_SEND where the engine runs), as for a batch. */
    send: presetFields.send.optional(),
    audioTrack: presetFields.audioTrack.default('first'),
    polling: presetFields.polling.default('auto'),
    package: presetFields.package.default('none'),
    subtitles: presetFields.subtitles.default(['vtt']),
    defaultAudio: presetFields.defaultAudio.default('original'),
    loudness: presetFields.loudness.default('broadcast'),
  })
  .strict();
export type WatchPreset = z.infer<typeof WatchPresetSchema>;
export type WatchPresetInput = z.input<typeof WatchPresetSchema>;

/** A change to some fields of a preset; the others keep their values. */
export const WatchPresetPatchSchema = z.object(presetFields).partial().strict();
export type WatchPresetPatch = z.infer<typeof WatchPresetPatchSchema>;

/**
 * The preset fields that decide what a dub produces. Changing one of them bumps `presetVersion`; the others
 * (after, recursive, creditLimit, uploadOnce, send, polling) change how the folder behaves, not its results, and
 * the delivery ones (package, subtitles, defaultAudio, loudness) what is made here of the dubs, never paid.
 */
export const VERSIONED_PRESET_FIELDS = [
  'to',
  'from',
  'studio',
  'api',
  'outputs',
  'outDir',
  'naming',
  'audioTrack',
] as const;

/** Files of a folder, by where they stand (see WatchFileStatus). */
export const WatchCountsSchema = z.object({
  /** Seen, not yet queued: still growing (`settling`) or rechecked after a problem (`waiting`). */
  waiting: z.number().int(),
  /** Dubs queued, none started yet. */
  queued: z.number().int(),
  /** At least one language uploading, at the service or downloading. */
  working: z.number().int(),
  /** Every language completed. */
  done: z.number().int(),
  /** A language failed and nothing is left running. */
  failed: z.number().int(),
  /** Every job of the file was canceled. */
  canceled: z.number().int(),
  /** Same content as a file already dubbed with this preset version: not dubbed, not charged again. */
  duplicates: z.number().int(),
  /** Gave up waiting on a file (unreadable, never stopped growing, not media): a person has to look. */
  attention: z.number().int(),
  /** Over the folder's credit limit (or the balance): waits for approval. */
  awaitingApproval: z.number().int(),
});
export type WatchCounts = z.infer<typeof WatchCountsSchema>;

/**
 * `starting`: being opened (scanning what arrived meanwhile); `watching`; `paused` (by a user: files that
 * arrive meanwhile are found on resume); `unavailable`: the folder cannot be reached (drive unplugged, share
 * down, deleted, no permission): nothing is lost and watching resumes by itself when it is back;
 * `inactive`: no Dubdesk works the queue right now (folders are watched by whichever process works it).
 */
export const WatchFolderStatusSchema = z.enum(['starting', 'watching', 'paused', 'unavailable', 'inactive']);
export type WatchFolderStatus = z.infer<typeof WatchFolderStatusSchema>;

export const WatchFolderSchema = z.object({
  id: z.number().int(),
  /** Absolute. */
  path: z.string(),
  preset: WatchPresetSchema,
  /** Grows when a field of VERSIONED_PRESET_FIELDS changes: a file is dubbed once per content and version. */
  presetVersion: z.number().int(),
  /** Where the results go (the preset's outDir, or the default `dubbed` folder inside), absolute. */
  outDir: z.string(),
  paused: z.boolean(),
  status: WatchFolderStatusSchema,
  /** In words: why it is unavailable or inactive; null while all is well. */
  statusMessage: z.string().nullable(),
  /** Changes are found by polling rather than file-system events. */
  polled: z.boolean(),
  /** Why it is polled (`network share (nfs4)`, `removable drive`, `set by the user`); null when not. */
  pollReason: z.string().nullable(),
  /** The last time a file of this folder was seen, taken or moved. */
  lastActivityAt: z.string().nullable(),
  /** The last full scan of the folder. */
  lastScanAt: z.string().nullable(),
  counts: WatchCountsSchema,
  /** Credits the files waiting for approval would cost (but for those of unknown length). */
  awaitingCredits: z.number().int(),
  /** Files waiting for approval that do not say their length: charged what the service measures. */
  awaitingUnknownLength: z.number().int().optional(),
  /** Credits the folder queued by itself in the last hour (what its creditLimit is compared with). */
  creditsLastHour: z.number().int(),
  /** Credits one hour of video costs with this preset (every language, studio included). */
  creditsPerHour: z.number(),
  createdAt: z.string(),
});
export type WatchFolder = z.infer<typeof WatchFolderSchema>;

/**
 * Where one version of one file stands. Before it is queued: `settling` (waiting for it to stop growing),
 * `waiting` (not ready or not readable as media: rechecked with backoff; `problem` says why), `attention`
 * (gave up after the maximum wait; a change to the file starts over), `awaiting-approval`. Once taken, its
 * jobs decide: `queued`, `working`, `done`, `failed`, `canceled`; `duplicate`: identical to a file already
 * dubbed (or being dubbed) with this preset version: that dub's results are copied (hard-linked) under its
 * own names by copy jobs, at no charge, instead of paying again.
 */
export const WATCH_FILE_STATUSES = [
  'settling',
  'waiting',
  'attention',
  'awaiting-approval',
  'queued',
  'working',
  'done',
  'failed',
  'canceled',
  'duplicate',
] as const;
export const WatchFileStatusSchema = z.enum(WATCH_FILE_STATUSES);
export type WatchFileStatus = z.infer<typeof WatchFileStatusSchema>;

export const WatchFileSchema = z.object({
  id: z.number().int(),
  folderId: z.number().int(),
  /** Absolute path where it was found. */
  path: z.string(),
  /** Relative to the watched folder. */
  name: z.string(),
  /** 1 for the first content seen at this path; a changed file is a new version (new jobs, new names). */
  version: z.number().int(),
  status: WatchFileStatusSchema,
  /** Why it waits, needs attention, or waits for approval; null otherwise. */
  problem: ContractErrorSchema.nullable(),
  /** The jobs that dub it (for a duplicate: the copy jobs that link the identical file's results here). */
  jobIds: z.array(z.number().int()),
  bytes: z.number().int(),
  durationSeconds: z.number().nullable(),
  /** Credits its own jobs are estimated at (0 for a duplicate); null before it is probed, or when it does not say its length. */
  credits: z.number().int().nullable(),
  /** The path of the identical file whose results it was copied from; null when not a duplicate. */
  duplicateOf: z.string().nullable(),
  /** Where `after: move` put it (`done/…` or `failed/…`); null while it is where it was found. */
  movedTo: z.string().nullable(),
  /** No longer at `path` (nor moved by Dubdesk): deleted or renamed by someone. */
  gone: z.boolean(),
  firstSeenAt: z.string(),
  /** When its jobs were queued (or it was found to be a duplicate). */
  takenAt: z.string().nullable(),
  /** When it is looked at again (settling or waiting). */
  nextCheckAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type WatchFile = z.infer<typeof WatchFileSchema>;

export const AddWatchFolderSchema = z.object({ path: Path, preset: WatchPresetSchema }).strict();
export type AddWatchFolder = z.input<typeof AddWatchFolderSchema>;

export const UpdateWatchFolderSchema = z
  .object({
    id: z.number().int().positive(),
    /** Only the fields given change. */
    preset: WatchPresetPatchSchema.optional(),
    paused: z.boolean().optional(),
  })
  .strict();
export type UpdateWatchFolder = z.input<typeof UpdateWatchFolderSchema>;

export const WatchFolderIdSchema = z.object({ id: z.number().int().positive() }).strict();

export const WatchFilesRequestSchema = z
  .object({
    id: z.number().int().positive(),
    /** Only files in these statuses; all when absent. */
    statuses: z.array(WatchFileStatusSchema).optional(),
    /** Case-insensitive match on the path. */
    search: z.string().max(500).optional(),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(500).default(100),
  })
  .strict();
export type WatchFilesRequest = z.input<typeof WatchFilesRequestSchema>;

export const WatchFilesPageSchema = z.object({
  /** Files matching the request (every version of every path), newest first. */
  total: z.number().int(),
  offset: z.number().int(),
  files: z.array(WatchFileSchema),
});
export type WatchFilesPage = z.infer<typeof WatchFilesPageSchema>;

export const ApproveResultSchema = z.object({
  /** Files released; each is queued now (or by the watching process within seconds). */
  queued: z.number().int(),
  /** Jobs this call queued (empty when the watching process queues them). */
  jobIds: z.array(z.number().int()),
  /** About what the files released cost, but for those whose length cannot be read (`unknownLength`). */
  credits: z.number().int(),
  /** Files released whose length cannot be read: each is charged what the service measures. */
  unknownLength: z.number().int().optional(),
});
export type ApproveResult = z.infer<typeof ApproveResultSchema>;

/**
 * Dubs a file of a watched folder again, ignoring that it was dubbed (or that an identical file was): new
 * jobs, charged again, results under new names. `path` is where it was found or where it was moved to.
 * A file not yet queued (waiting, attention, awaiting approval) is checked again at once and queued without
 * waiting for approval.
 */
export const ReprocessWatchFileSchema = z.object({ id: z.number().int().positive(), path: Path }).strict();
