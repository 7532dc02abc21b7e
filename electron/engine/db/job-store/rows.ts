import { z } from 'zod';
import { MAX_MEASURED_SECONDS } from '../../../../shared/api/common';
import { ERROR_CODES } from '../../../../shared/contract/errors';
import { AudioTrackSchema } from '../../../../shared/contract/audio-track';
import { API_GENERATIONS, JOB_STATES } from '../../../../shared/contract/jobs';

const SANE_MEASURED = z.number().min(0).max(MAX_MEASURED_SECONDS);
const SANE_CREDITS = z
  .number()
  .int()
  .min(0)
  .max(2 * MAX_MEASURED_SECONDS);

/** Rows whose service figures are out of range (what `JobRow` reads as unknown): the doctor lists them. */
export const INSANE_FIGURES_SQL = `SELECT id FROM jobs WHERE
  (measured_duration IS NOT NULL AND (typeof(measured_duration) NOT IN ('real', 'integer')
    OR NOT (measured_duration BETWEEN 0 AND ${MAX_MEASURED_SECONDS})))
  OR (credits_charged IS NOT NULL AND (typeof(credits_charged) != 'integer'
    OR NOT (credits_charged BETWEEN 0 AND ${2 * MAX_MEASURED_SECONDS})))
  ORDER BY id LIMIT 20`;

/**
 * `create_pending`, what a job knows of a v2 create it sent (0: none under way).
 * - SENT: no answer was read: it may be lost, so the dub may exist. Looked for first; made again if absent.
 * - ANSWERED: the service answered 2xx but the answer could not be read: the dub exists (and will be
 *   charged). Looked for; never made again, whatever the lookup finds.
 */
export const CREATE_SENT = 1;
export const CREATE_ANSWERED = 2;

/**
 * `abandoned_remote_ids`: the dubs a job never adopts again (failed, or made but never dispatched), a JSON
 * list in its cell. A damaged cell reads as the ids it still names rather than stopping every list.
 */
const AnyList = z.array(z.unknown());
export const AbandonedIds = z.string().transform((cell): string[] => {
  let json: unknown = null;
  try {
    json = JSON.parse(cell);
  } catch {
    /* damaged: no ids */
  }
  const list = AnyList.safeParse(json);
  return list.success ? list.data.filter((id): id is string => typeof id === 'string') : [];
});

/** Columns kept as JSON text: how each is written back from what a row holds. */
const JSON_COLUMNS = ['abandoned_remote_ids'] as const;

/** A patch of row values as the cells take them (lists written as JSON text). */
export function cellsOf(patch: Partial<JobRow>): Record<string, unknown> {
  const cells: Record<string, unknown> = { ...patch };
  for (const column of JSON_COLUMNS) if (column in cells) cells[column] = JSON.stringify(cells[column]);
  return cells;
}

/** A row of `jobs` exactly as stored; parsed on the way out because the database is a file on disk. */
export const JobRow = z.object({
  id: z.number().int(),
  source: z.string(),
  source_kind: z.enum(['file', 'url']),
  source_name: z.string(),
  source_type: z.string().nullable(),
  source_bytes: z.number().int().nullable(),
  source_mtime: z.number().nullable(),
  /** The file's content (SHA-256): what a source is, wherever it lies and whenever it was touched. */
  source_hash: z.string().nullable(),
  /** What the batch asked for besides the dub (JSON, see job-store/deliver-values.ts); null: nothing (older jobs). */
  deliver: z.string().nullable(),
  /** The finished dub's QC (JSON, QcSchema, parsed where read); null until it has run. */
  qc: z.string().nullable(),
  duration: z.number().nullable(),
  dest_lang: z.string(),
  source_lang: z.string(),
  api: z.enum(API_GENERATIONS),
  studio: z.number().int(),
  out_dir: z.string(),
  outputs_wanted: z.string(),
  naming: z.enum(['suffix', 'folders']),
  service: z.string(),
  watch_folder_id: z.number().int().nullable(),
  state: z.enum(JOB_STATES),
  step: z.enum(['submit', 'track', 'fetch', 'done']),
  remote_id: z.string().nullable(),
  upload_url: z.string().nullable(),
  upload_expires_at: z.number().int().nullable(),
  uploaded: z.number().int(),
  create_pending: z.number().int(),
  create_attempted_at: z.number().int().nullable(),
  /** The service's newest dub just before the last v2 create was sent (JSON, see flows/create-mark.ts). */
  create_mark: z.string().nullable(),
  abandoned_remote_ids: AbandonedIds,
  remote_status: z.number().int().nullable(),
  progress: z.number(),
  waiting: z.string().nullable(),
  waiting_code: z.string().nullable(),
  error: z.string().nullable(),
  error_code: z.enum(ERROR_CODES).nullable(),
  error_remedy: z.string().nullable(),
  attempts: z.number().int(),
  next_run_at: z.number().int(),
  pause_requested: z.number().int(),
  lease_token: z.string().nullable(),
  lease_expires_at: z.number().int().nullable(),
  // The service's figures: a row written before they were checked at the door (or edited by hand) reads
  // as unknown instead of failing every command that lists it; the doctor names such rows.
  measured_duration: SANE_MEASURED.nullable().catch(null),
  credits_charged: SANE_CREDITS.nullable().catch(null),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  completed_at: z.number().int().nullable(),
  upload_once: z.number().int(),
  made_from: z.enum(['upload', 'link']).nullable(),
  donor_remote_id: z.string().nullable(),
  link_refused: z.number().int(),
  /** When the user cleared the completed job from the queue: hidden from every list, still remembered. */
  cleared_at: z.number().int().nullable(),
  /** 1: another job dubs this content; this one gets its files linked under its own names, at no charge. */
  reuse_results: z.number().int(),
  /** The result this job's files were linked from (e.g. `talk.es.mp4`); null when it was dubbed itself. */
  copied_from: z.string().nullable(),
  /** When a finished job aged out of the live list into the history (still searchable, still remembered). */
  archived_at: z.number().int().nullable(),
  /** What it sends: the source's sound alone (its video rebuilt here), or the whole file. */
  send: z.enum(['audio', 'file']).catch('file'),
  /** The sound extracted to send (the data folder's staging area) and its type, once whole. */
  staged_audio: z.string().nullable(),
  staged_type: z.string().nullable(),
  /** The dubbed sound fetched to rebuild the video from, once whole (staging, or the job's own result). */
  dubbed_audio: z.string().nullable(),
  /** Which audio track of the source it dubs (AudioTrackSchema); a value edited into nonsense reads as `first`. */
  audio_track: AudioTrackSchema.catch('first'),
});
export type JobRow = z.infer<typeof JobRow>;

/** Columns only the job's life (`jobs/life.ts`) writes: where the job is and why. */
export const LIFE_COLUMNS = [
  'state',
  'step',
  'waiting',
  'waiting_code',
  'error',
  'error_code',
  'error_remedy',
  'attempts',
  'next_run_at',
  'pause_requested',
  'completed_at',
  'measured_duration',
  'credits_charged',
  'link_refused',
  'cleared_at',
  'copied_from',
  'archived_at',
] as const;
type LifeColumn = (typeof LIFE_COLUMNS)[number];

/** What the flows record as they go (remote ids, upload progress); never where the job is in its life. */
export type RecordPatch = Partial<
  Omit<
    JobRow,
    | LifeColumn
    | 'id'
    | 'source'
    | 'source_kind'
    | 'created_at'
    | 'updated_at'
    | 'lease_token'
    | 'lease_expires_at'
  >
>;

/** Everything a row may change, life columns included: only for `jobs/life.ts`. */
export type AnyPatch = RecordPatch & Partial<Pick<JobRow, LifeColumn>>;

export type NewJob = Pick<
  JobRow,
  | 'source'
  | 'source_kind'
  | 'source_name'
  | 'source_type'
  | 'source_bytes'
  | 'source_mtime'
  | 'duration'
  | 'dest_lang'
  | 'source_lang'
  | 'api'
  | 'studio'
  | 'out_dir'
  | 'outputs_wanted'
  | 'naming'
  | 'service'
  | 'watch_folder_id'
  | 'upload_once'
> &
  Partial<Pick<JobRow, 'source_hash' | 'reuse_results' | 'deliver' | 'send' | 'audio_track'>>;

export const OutputRow = z.object({
  job_id: z.number().int(),
  type: z.string(),
  path: z.string(),
  bytes: z.number().int().nullable(),
  done: z.number().int(),
});
export type OutputRow = z.infer<typeof OutputRow>;

export const HistoryRow = z.object({
  at: z.number().int(),
  from_state: z.enum(JOB_STATES).nullable(),
  to_state: z.enum(JOB_STATES),
  event: z.string(),
  reason: z.string().nullable(),
});
export type HistoryRow = z.infer<typeof HistoryRow>;

/** A write by someone who no longer holds the job (a cancel or retry took it, or it moved on). */
export class LeaseLostError extends Error {
  constructor(id: number) {
    super(`job ${id}: lease lost (another worker or a user action took it)`);
    this.name = 'LeaseLostError';
  }
}

/**
 * Who writes: a worker under its token, the poller (a live tracked job, or a canceled one it follows, or a
 * canceled one whose create was under way: `after-cancel`), a user.
 */
export type WriteGuard = { token: string } | 'tracked' | 'followed' | 'after-cancel' | 'user';

export const NOT_WORKABLE = `('completed', 'failed', 'canceled', 'paused')`;
export const FINISHED = `('completed', 'failed', 'canceled')`;
