import { z } from 'zod';
import { AccountSchema, AppInfoSchema, LanguagesSchema, TestKeyRequestSchema } from './account';
import {
  AddRequestSchema,
  AddResultSchema,
  BatchRequestSchema,
  DubAgainSchema,
  EstimateSchema,
} from './batches';
import type { EventListener } from './events';
import { METHOD_NAMES as NAMES, type MethodName } from './method-names';
import {
  ActionResultSchema,
  JobDetailSchema,
  JobIdSchema,
  JobPageSchema,
  JudgeQcSchema,
  LogLineSchema,
  PackageNowSchema,
  PackageViewSchema,
  PageRequestSchema,
  RetrySchema,
  SelectionSchema,
  SourcePageSchema,
} from './jobs';
import { PresetListSchema, PresetNameRequestSchema, PresetSchema, SavePresetSchema } from './presets';
import { MoveRequestSchema, MoveResultSchema, QueueTotalsSchema } from './queue';
import { SpendingRequestSchema, SpendingSchema } from './spending';
import { WhenDoneSchema, WhenDoneStateSchema } from '../when-done';
import { SettingsPatchSchema, SettingsSchema } from './settings';
import {
  AddWatchFolderSchema,
  ApproveResultSchema,
  ReprocessWatchFileSchema,
  UpdateWatchFolderSchema,
  WatchFileSchema,
  WatchFilesPageSchema,
  WatchFilesRequestSchema,
  WatchFolderIdSchema,
  WatchFolderSchema,
} from './watch';

interface MethodSpec {
  /** Null: the method takes no argument. */
  input: z.ZodType | null;
  output: z.ZodType;
  /** Reads only (safe to repeat, never changes anything). */
  query: boolean;
}

const q = <I extends z.ZodType | null, O extends z.ZodType>(input: I, output: O) => ({
  input,
  output,
  query: true as const,
});
const act = <I extends z.ZodType | null, O extends z.ZodType>(input: I, output: O) => ({
  input,
  output,
  query: false as const,
});

/**
 * The contract: one method per action a user can take, each argument and result a zod schema of plain
 * JSON. The in-process engine, the IPC bridge and the HTTP server are all built from this table.
 */
export const METHODS = {
  appInfo: q(null, AppInfoSchema),
  /** Target languages from the live list, each marked when the legacy generation takes it too. */
  languages: q(null, LanguagesSchema),
  /** Profile and balance of the key in use. */
  account: q(null, AccountSchema),
  /** Checks a key against the account endpoint without saving it. */
  testKey: act(TestKeyRequestSchema, AccountSchema),
  /** Probes the sources and prices the batch; nothing is queued. */
  estimate: act(BatchRequestSchema, EstimateSchema),
  /** Queues the batch; refuses one over the balance unless `force`. */
  add: act(AddRequestSchema, AddResultSchema),
  /**
   * What dubbing a job again costs: its own choices priced as the service bills them (its send path's
   * length); nothing is queued.
   */
  estimateAgain: act(JobIdSchema, EstimateSchema),
  /** Dubs finished jobs again with their own choices (see DubAgainSchema); charged again. */
  dubAgain: act(DubAgainSchema, AddResultSchema),
  listJobs: q(PageRequestSchema, JobPageSchema),
  /** The queue grouped by source, a page of rows at a time. */
  listSources: q(PageRequestSchema, SourcePageSchema),
  getJob: q(JobIdSchema, JobDetailSchema),
  jobLog: q(
    JobIdSchema.extend({ limit: z.number().int().min(1).max(1000).default(200) }).strict(),
    z.object({ lines: z.array(LogLineSchema) }),
  ),
  retryJobs: act(RetrySchema, ActionResultSchema),
  cancelJobs: act(SelectionSchema, ActionResultSchema),
  /** A paused job finishes the HTTP step it is in, then waits; resume goes on from there. */
  pauseJobs: act(SelectionSchema, ActionResultSchema),
  resumeJobs: act(SelectionSchema, ActionResultSchema),
  /**
   * Removes finished jobs (completed, failed, canceled) from the list; never deletes a file. Completed dubs are
   * still remembered: adding the same file again is reported as already dubbed, and its results are never
   * taken as new sources.
   */
  clearJobs: act(SelectionSchema, ActionResultSchema),
  /**
   * One file with every finished language of a source, made (again) now without waiting for its other
   * languages; the one it replaces goes to `previous/`. Made here with ffmpeg: nothing is charged.
   */
  packageNow: act(PackageNowSchema, PackageViewSchema),
  /**
   * Finished dubs judged again against another loudness target (broadcast or web) from their stored
   * measurement: no file is read again and nothing is charged. `changed`: judged again; `skipped`: why not.
   */
  judgeQc: act(JudgeQcSchema, ActionResultSchema),
  totals: q(null, QueueTotalsSchema),
  pauseQueue: act(null, QueueTotalsSchema),
  resumeQueue: act(null, QueueTotalsSchema),
  getSettings: q(null, SettingsSchema),
  setSettings: act(SettingsPatchSchema, SettingsSchema),
  /** Every watched folder with its status and counts, in the order they were added. */
  listWatchFolders: q(null, z.object({ folders: z.array(WatchFolderSchema) })),
  /**
   * Watches a folder (it must exist and be readable; not inside, nor around, a folder already watched with
   * its subfolders). Files already in it are taken too. The process that works the queue starts watching
   * it within seconds.
   */
  addWatchFolder: act(AddWatchFolderSchema, WatchFolderSchema),
  /** Changes some preset fields and/or pauses or resumes; a change of a versioned field bumps presetVersion. */
  updateWatchFolder: act(UpdateWatchFolderSchema, WatchFolderSchema),
  /** Stops watching: its file records go, its jobs and every file on disk stay. */
  removeWatchFolder: act(WatchFolderIdSchema, z.object({ id: z.number().int() })),
  /** The files of a folder a page at a time (every version of every path), newest first. */
  listWatchFiles: q(WatchFilesRequestSchema, WatchFilesPageSchema),
  /** Queues the files of a folder that wait for approval (over its credit limit or the balance). */
  approveWatchFolder: act(WatchFolderIdSchema, ApproveResultSchema),
  /** Dubs a file of a watched folder again, even though it (or an identical file) was dubbed before. */
  reprocessWatchFile: act(ReprocessWatchFileSchema, WatchFileSchema),
  /** Looks through the whole folder again now (periodic full scans happen anyway). */
  rescanWatchFolder: act(WatchFolderIdSchema, WatchFolderSchema),
  /**
   * Moves jobs in the queue's order (the order the worker starts them in): to the top, the bottom, or before
   * another job. A job already sending its file, or finished, stays where it is.
   */
  moveJobs: act(MoveRequestSchema, MoveResultSchema),
  /** Every named preset, by name. */
  listPresets: q(null, PresetListSchema),
  /** Saves a preset under its name (a preset of that name is replaced). */
  savePreset: act(SavePresetSchema, PresetSchema),
  deletePreset: act(PresetNameRequestSchema, z.object({ name: z.string() })),
  /** Every charged job (cleared ones too) as the service charged it, and the monthly budget. */
  spending: q(SpendingRequestSchema, SpendingSchema),
  /** What happens when the queue has nothing left to do, and the countdown under way. */
  whenDone: q(null, WhenDoneStateSchema),
  setWhenDone: act(WhenDoneSchema, WhenDoneStateSchema),
  /** Stops a sleep or shut-down countdown (the choice goes back to doing nothing). */
  cancelWhenDone: act(null, WhenDoneStateSchema),
} as const satisfies Record<MethodName, MethodSpec>;

export type { MethodName };
export const METHOD_NAMES: MethodName[] = [...NAMES];

export type MethodInput<K extends MethodName> = (typeof METHODS)[K]['input'] extends z.ZodType
  ? z.input<(typeof METHODS)[K]['input']>
  : undefined;
/** What the implementation receives: the input after parsing (defaults filled in). */
export type MethodArgs<K extends MethodName> = (typeof METHODS)[K]['input'] extends z.ZodType
  ? z.output<(typeof METHODS)[K]['input']>
  : undefined;
export type MethodOutput<K extends MethodName> = z.output<(typeof METHODS)[K]['output']>;

type Call<K extends MethodName> = (typeof METHODS)[K]['input'] extends z.ZodType
  ? (input: MethodInput<K>) => Promise<MethodOutput<K>>
  : () => Promise<MethodOutput<K>>;

/** What every face talks to: the engine in-process, over IPC (Electron) or over HTTP (web mode). */
export type DubdeskApi = { [K in MethodName]: Call<K> } & {
  /** Events in order; returns the function that ends the subscription. */
  subscribe(listener: EventListener): () => void;
};

/** What an implementation writes: parsed arguments in, plain results out. */
export type DubdeskHandlers = {
  [K in MethodName]: (args: MethodArgs<K>) => Promise<MethodOutput<K>> | MethodOutput<K>;
};
