import { z } from 'zod';
import { ContractErrorSchema, type ContractError } from '../../../shared/contract/errors';
import {
  WATCH_FILE_STATUSES,
  WatchPresetSchema,
  type WatchFileStatus,
  type WatchPreset,
} from '../../../shared/contract/watch';
import { JOB_STATES } from '../../../shared/contract/jobs';
import type { Db } from './open';

/** A row of `watch_folders` as stored; the preset JSON is parsed with the contract's own schema. */
export const WatchFolderRow = z.object({
  id: z.number().int(),
  path: z.string(),
  preset: z.string().transform((raw, ctx): WatchPreset => {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'the stored preset is not JSON' });
      return z.NEVER;
    }
    const parsed = WatchPresetSchema.safeParse(json);
    if (!parsed.success) {
      ctx.addIssue({ code: 'custom', message: `the stored preset is damaged: ${parsed.error.message}` });
      return z.NEVER;
    }
    return parsed.data;
  }),
  preset_version: z.number().int(),
  paused: z.number().int(),
  status: z.enum(['starting', 'watching', 'unavailable']),
  status_message: z.string().nullable(),
  polled: z.number().int(),
  poll_reason: z.string().nullable(),
  revision: z.number().int(),
  rescan_asked: z.number().int(),
  last_activity_at: z.number().int().nullable(),
  last_scan_at: z.number().int().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type WatchFolderRow = z.infer<typeof WatchFolderRow>;

/** What a file row records (see migration 3): `ready` = hashed, about to be planned; `output` = ours. */
export const FILE_ROW_STATUSES = [
  'settling',
  'waiting',
  'attention',
  'ready',
  'awaiting-approval',
  'taken',
  'duplicate',
  'output',
] as const;
export type FileRowStatus = (typeof FILE_ROW_STATUSES)[number];

const Outcome = z.enum(['done', 'failed', 'canceled']);
export type Outcome = z.infer<typeof Outcome>;

export const WatchFileRow = z.object({
  id: z.number().int(),
  folder_id: z.number().int(),
  path: z.string(),
  current: z.number().int(),
  version: z.number().int(),
  status: z.enum(FILE_ROW_STATUSES),
  size: z.number().int(),
  mtime_ms: z.number().int(),
  changed_at: z.number().int(),
  wait_since: z.number().int(),
  hash: z.string().nullable(),
  preset_version: z.number().int().nullable(),
  duration: z.number().nullable(),
  credits: z.number().int().nullable(),
  approved: z.number().int(),
  forced: z.number().int(),
  attempts: z.number().int(),
  problem: z
    .string()
    .nullable()
    .transform((raw): ContractError | null => {
      if (raw === null) return null;
      try {
        const parsed = ContractErrorSchema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : { code: 'internal', message: 'a damaged problem record' };
      } catch {
        return { code: 'internal', message: 'a damaged problem record' };
      }
    }),
  next_check_at: z.number().int().nullable(),
  duplicate_of: z.number().int().nullable(),
  outcome: Outcome.nullable(),
  moved_to: z.string().nullable(),
  gone: z.number().int(),
  first_seen_at: z.number().int(),
  taken_at: z.number().int().nullable(),
  updated_at: z.number().int(),
  rev: z.number().int(),
});
export type WatchFileRow = z.infer<typeof WatchFileRow>;

/** What may change on a file row (the problem as a ContractError; the store writes it as JSON). */
export type FilePatch = Partial<
  Omit<WatchFileRow, 'id' | 'folder_id' | 'rev' | 'updated_at' | 'problem'> & {
    problem: ContractError | null;
  }
>;

const ViewRow = WatchFileRow.extend({
  shown: z.enum(WATCH_FILE_STATUSES),
  duplicate_path: z.string().nullable(),
});
export type WatchFileViewRow = z.infer<typeof ViewRow>;

/** A linked job as coverage sees it: which file, whose job, which language, where it is. */
const LinkedJob = z.object({
  file_id: z.number().int(),
  job_id: z.number().int(),
  own: z.number().int(),
  dest_lang: z.string(),
  state: z.enum(JOB_STATES),
});
export type LinkedJob = z.infer<typeof LinkedJob>;

/** A current row as a full scan needs it. */
const PresentRow = WatchFileRow.pick({ id: true, path: true, status: true, moved_to: true, gone: true });
export type PresentRow = z.infer<typeof PresentRow>;

/**
 * The status a user sees: before a file is taken, its own; once taken, what its jobs say (the recorded
 * outcome once they were cleared from the queue).
 */
const SHOWN = `
  CASE
    WHEN f.status = 'ready' THEN 'settling'
    WHEN f.status IN ('settling', 'waiting', 'attention', 'awaiting-approval') THEN f.status
    WHEN f.status = 'duplicate' THEN 'duplicate'
    WHEN a.n IS NULL THEN coalesce(f.outcome, 'done')
    WHEN a.working > 0 THEN 'working'
    WHEN a.waiting > 0 THEN 'queued'
    WHEN a.failed > 0 THEN 'failed'
    WHEN a.completed > 0 THEN 'done'
    ELSE 'canceled'
  END`;

/** Per file of one folder: how many of its jobs are where. */
const AGG = `
  agg AS (
    SELECT l.file_id, count(j.id) AS n,
      sum(j.state IN ('uploading', 'submitted', 'processing', 'downloading')) AS working,
      sum(j.state IN ('queued', 'paused')) AS waiting,
      sum(j.state = 'failed') AS failed,
      sum(j.state = 'completed') AS completed
    FROM watch_file_jobs l JOIN jobs j ON j.id = l.job_id
    WHERE l.file_id IN (SELECT id FROM watch_files WHERE folder_id = @folder)
    GROUP BY l.file_id
  )`;

export interface FilesFilter {
  statuses?: readonly WatchFileStatus[] | undefined;
  search?: string | undefined;
}

/** Every query on the watch tables. */
export class WatchStore {
  private readonly q;
  private readonly updates = new Map<string, ReturnType<Db['prepare']>>();

  constructor(readonly db: Db) {
    this.q = {
      folders: db.prepare(`SELECT * FROM watch_folders ORDER BY id`),
      folder: db.prepare(`SELECT * FROM watch_folders WHERE id = ?`),
      insertFolder: db.prepare(
        `INSERT INTO watch_folders (path, preset, created_at, updated_at) VALUES (?, ?, ?, ?)`,
      ),
      removeFolder: db.prepare(`DELETE FROM watch_folders WHERE id = ?`),
      folderState: db.prepare(
        `UPDATE watch_folders SET status = @status, status_message = @status_message, polled = @polled,
           poll_reason = @poll_reason WHERE id = @id`,
      ),
      activity: db.prepare(`UPDATE watch_folders SET last_activity_at = ? WHERE id = ?`),
      scanned: db.prepare(`UPDATE watch_folders SET last_scan_at = ? WHERE id = ?`),
      askRescan: db.prepare(
        `UPDATE watch_folders SET rescan_asked = rescan_asked + 1, revision = revision + 1 WHERE id = ?`,
      ),
      file: db.prepare(`SELECT * FROM watch_files WHERE id = ?`),
      current: db.prepare(`SELECT * FROM watch_files WHERE folder_id = ? AND path = ? AND current = 1`),
      byLocation: db.prepare(
        `SELECT * FROM watch_files WHERE folder_id = ? AND (path = ? OR moved_to = ?) ORDER BY id DESC LIMIT 1`,
      ),
      previous: db.prepare(
        `SELECT * FROM watch_files WHERE folder_id = ? AND path = ? AND current = 0 ORDER BY version DESC LIMIT 1`,
      ),
      insertFile: db.prepare(`
        INSERT INTO watch_files (folder_id, path, version, status, size, mtime_ms, changed_at, wait_since,
          next_check_at, first_seen_at, updated_at)
        VALUES (@folder_id, @path, @version, @status, @size, @mtime_ms, @now, @now, @next_check_at, @now, @now)`),
      deleteFile: db.prepare(`DELETE FROM watch_files WHERE id = ? AND rev = ?`),
      due: db.prepare(
        `SELECT * FROM watch_files WHERE status IN ('settling', 'waiting') AND next_check_at <= ?
           AND folder_id = ? ORDER BY next_check_at, id LIMIT ?`,
      ),
      withStatus: db.prepare(
        `SELECT * FROM watch_files WHERE folder_id = ? AND status = ? ORDER BY id LIMIT ?`,
      ),
      recheck: db.prepare(
        `UPDATE watch_files SET next_check_at = ?, rev = rev + 1 WHERE folder_id = ? AND status = 'settling'`,
      ),
      hasStatus: db.prepare(`SELECT 1 FROM watch_files WHERE folder_id = ? AND status = ? LIMIT 1`),
      sameContent: db.prepare(
        `SELECT * FROM watch_files WHERE folder_id = ? AND hash = ? AND preset_version = ? AND id != ?
           AND status IN ('taken', 'duplicate') ORDER BY id`,
      ),
      link: db.prepare(`INSERT OR IGNORE INTO watch_file_jobs (file_id, job_id, own) VALUES (?, ?, ?)`),
      unlink: db.prepare(`DELETE FROM watch_file_jobs WHERE file_id = ?`),
      linked: db.prepare(`
        SELECT l.file_id, l.job_id, l.own, j.dest_lang, j.state
        FROM watch_file_jobs l JOIN jobs j ON j.id = l.job_id
        WHERE l.file_id IN (SELECT value FROM json_each(?)) ORDER BY l.job_id`),
      jobIds: db.prepare(
        `SELECT file_id, job_id FROM watch_file_jobs WHERE file_id IN (SELECT value FROM json_each(?))
           ORDER BY job_id`,
      ),
      windowCredits: db.prepare(
        `SELECT coalesce(sum(credits), 0) AS n FROM watch_files
           WHERE folder_id = ? AND status = 'taken' AND approved = 0 AND forced = 0 AND taken_at > ?`,
      ),
      awaiting: db.prepare(
        `SELECT count(*) AS n, coalesce(sum(credits), 0) AS credits FROM watch_files
           WHERE folder_id = ? AND status = 'awaiting-approval'`,
      ),
      present: db.prepare(
        `SELECT id, path, status, moved_to, gone FROM watch_files WHERE folder_id = ? AND current = 1`,
      ),
      // Any job's result, not only this folder's: a folder watching another one's output folder would
      // dub its dubs (and pay for them). `reprocess` still takes one on purpose.
      ownOutput: db.prepare(`SELECT 1 FROM outputs WHERE path = ? LIMIT 1`),
      jobSignature: db.prepare(
        `SELECT count(*) AS n, coalesce(max(updated_at), 0) AS at FROM jobs WHERE watch_folder_id = ?`,
      ),
      heartbeat: db.prepare(`SELECT value FROM settings WHERE key = 'watch.heartbeat'`),
      putHeartbeat: db.prepare(
        `INSERT INTO settings (key, value) VALUES ('watch.heartbeat', ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      dropHeartbeat: db.prepare(`DELETE FROM settings WHERE key = 'watch.heartbeat' AND value LIKE ?`),
    };
  }

  // ---- folders

  folders(): WatchFolderRow[] {
    return this.q.folders.all().map((r) => WatchFolderRow.parse(r));
  }

  folder(id: number): WatchFolderRow | undefined {
    const row = this.q.folder.get(id);
    return row ? WatchFolderRow.parse(row) : undefined;
  }

  insertFolder(path: string, preset: WatchPreset, now: number): number {
    return Number(this.q.insertFolder.run(path, JSON.stringify(preset), now, now).lastInsertRowid);
  }

  /** A user's change: the watching process notices it through `revision`. */
  updateFolder(
    id: number,
    patch: { preset?: WatchPreset; presetVersion?: number; paused?: boolean },
    now: number,
  ): void {
    const sets = ['revision = revision + 1', 'updated_at = @now'];
    if (patch.preset) sets.push('preset = @preset');
    if (patch.presetVersion !== undefined) sets.push('preset_version = @preset_version');
    if (patch.paused !== undefined) sets.push('paused = @paused');
    this.db.prepare(`UPDATE watch_folders SET ${sets.join(', ')} WHERE id = @id`).run({
      id,
      now,
      preset: patch.preset ? JSON.stringify(patch.preset) : null,
      preset_version: patch.presetVersion ?? null,
      paused: patch.paused ? 1 : 0,
    });
  }

  removeFolder(id: number): boolean {
    return this.q.removeFolder.run(id).changes === 1;
  }

  /** What the watching process found (not a user's change: no new revision). */
  setFolderState(
    id: number,
    s: {
      status: WatchFolderRow['status'];
      message: string | null;
      polled: boolean;
      pollReason: string | null;
    },
  ): void {
    this.q.folderState.run({
      id,
      status: s.status,
      status_message: s.message,
      polled: s.polled ? 1 : 0,
      poll_reason: s.pollReason,
    });
  }

  activity(id: number, now: number): void {
    this.q.activity.run(now, id);
  }

  scanned(id: number, now: number): void {
    this.q.scanned.run(now, id);
  }

  /** `rescan_asked` only grows: the watching process rescans when it differs from the count it saw. */
  askRescan(id: number): void {
    this.q.askRescan.run(id);
  }

  // ---- files

  file(id: number): WatchFileRow | undefined {
    const row = this.q.file.get(id);
    return row ? WatchFileRow.parse(row) : undefined;
  }

  current(folderId: number, path: string): WatchFileRow | undefined {
    const row = this.q.current.get(folderId, path);
    return row ? WatchFileRow.parse(row) : undefined;
  }

  /** The newest row found at `path` or moved to it. */
  byLocation(folderId: number, path: string): WatchFileRow | undefined {
    const row = this.q.byLocation.get(folderId, path, path);
    return row ? WatchFileRow.parse(row) : undefined;
  }

  previousVersion(folderId: number, path: string): WatchFileRow | undefined {
    const row = this.q.previous.get(folderId, path);
    return row ? WatchFileRow.parse(row) : undefined;
  }

  insertFile(f: {
    folder_id: number;
    path: string;
    version: number;
    status: FileRowStatus;
    size: number;
    mtime_ms: number;
    next_check_at: number | null;
    now: number;
  }): number {
    return Number(this.q.insertFile.run(f).lastInsertRowid);
  }

  /** Compare-and-set, like `update`. */
  deleteFile(id: number, rev: number): boolean {
    return this.q.deleteFile.run(id, rev).changes === 1;
  }

  /**
   * Compare-and-set: writes only when the row is still at `rev` (nobody changed it since it was read).
   * Returns whether it wrote.
   */
  update(id: number, rev: number, patch: FilePatch, now: number): boolean {
    const keys = Object.keys(patch).sort();
    for (const k of keys) if (!(k in WatchFileRow.shape)) throw new Error(`unknown column ${k}`);
    const sig = keys.join(',');
    let stmt = this.updates.get(sig);
    if (!stmt) {
      const sets = [...keys.map((k) => `${k} = @${k}`), 'rev = rev + 1', 'updated_at = @__now'];
      stmt = this.db.prepare(`UPDATE watch_files SET ${sets.join(', ')} WHERE id = @__id AND rev = @__rev`);
      this.updates.set(sig, stmt);
    }
    const values: Record<string, unknown> = { ...patch, __id: id, __rev: rev, __now: now };
    if ('problem' in patch) values.problem = patch.problem ? JSON.stringify(patch.problem) : null;
    return stmt.run(values).changes === 1;
  }

  /** Rows due for a look: settling or waiting, their time come. */
  due(folderId: number, now: number, limit: number): WatchFileRow[] {
    return this.q.due.all(now, folderId, limit).map((r) => WatchFileRow.parse(r));
  }

  withStatus(folderId: number, status: FileRowStatus, limit = 1_000_000): WatchFileRow[] {
    return this.q.withStatus.all(folderId, status, limit).map((r) => WatchFileRow.parse(r));
  }

  /** Every settling file of the folder is looked at again at `now` (a watcher starts on it). */
  recheckSettling(folderId: number, now: number): void {
    this.q.recheck.run(now, folderId);
  }

  hasStatus(folderId: number, status: FileRowStatus): boolean {
    return this.q.hasStatus.get(folderId, status) !== undefined;
  }

  /** Taken files with this content and preset version (other than `exceptId`). */
  sameContent(folderId: number, hash: string, presetVersion: number, exceptId: number): WatchFileRow[] {
    return this.q.sameContent.all(folderId, hash, presetVersion, exceptId).map((r) => WatchFileRow.parse(r));
  }

  link(fileId: number, jobId: number, own: boolean): void {
    this.q.link.run(fileId, jobId, own ? 1 : 0);
  }

  unlinkAll(fileId: number): void {
    this.q.unlink.run(fileId);
  }

  /** The jobs linked to these files that are still in the queue. */
  linkedJobs(fileIds: readonly number[]): LinkedJob[] {
    if (fileIds.length === 0) return [];
    return this.q.linked.all(JSON.stringify(fileIds)).map((r) => LinkedJob.parse(r));
  }

  jobIdsOf(fileIds: readonly number[]): Map<number, number[]> {
    const out = new Map<number, number[]>();
    if (fileIds.length === 0) return out;
    for (const r of this.q.jobIds.all(JSON.stringify(fileIds)) as { file_id: number; job_id: number }[]) {
      const list = out.get(r.file_id);
      if (list) list.push(r.job_id);
      else out.set(r.file_id, [r.job_id]);
    }
    return out;
  }

  /** Credits the folder queued by itself (not approved, not forced) since `since`. */
  creditsSince(folderId: number, since: number): number {
    return (this.q.windowCredits.get(folderId, since) as { n: number }).n;
  }

  awaiting(folderId: number): { files: number; credits: number } {
    const r = this.q.awaiting.get(folderId) as { n: number; credits: number };
    return { files: r.n, credits: r.credits };
  }

  /** Current rows, for a full scan to tell which paths it no longer finds. */
  present(folderId: number): PresentRow[] {
    return this.q.present.all(folderId).map((r) => PresentRow.parse(r));
  }

  setGone(ids: readonly number[], gone: boolean): void {
    if (ids.length === 0) return;
    this.db
      .prepare(`UPDATE watch_files SET gone = ?, rev = rev + 1 WHERE id IN (SELECT value FROM json_each(?))`)
      .run(gone ? 1 : 0, JSON.stringify(ids));
  }

  /** A result this folder's own jobs wrote (or are writing) at `path`. */
  isOwnOutput(path: string): boolean {
    return this.q.ownOutput.get(path) !== undefined;
  }

  /** Changes when any job of the folder changes: the watching process looks closer only then. */
  jobSignature(folderId: number): string {
    const r = this.q.jobSignature.get(folderId) as { n: number; at: number };
    return `${r.n}:${r.at}`;
  }

  /** Files of a folder as a user sees them, newest first. */
  page(
    folderId: number,
    filter: FilesFilter,
    offset: number,
    limit: number,
  ): { total: number; rows: WatchFileViewRow[] } {
    const { sql, params } = this.filtered(folderId, filter);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM (${sql})`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`${sql} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit, offset })
      .map((r) => ViewRow.parse(r));
    return { total, rows };
  }

  /** One file as a user sees it. */
  view(fileId: number): WatchFileViewRow | undefined {
    const f = this.file(fileId);
    if (!f) return undefined;
    const { sql, params } = this.filtered(f.folder_id, {});
    const row = this.db.prepare(`SELECT * FROM (${sql}) WHERE id = @id`).get({ ...params, id: fileId });
    return row ? ViewRow.parse(row) : undefined;
  }

  counts(folderId: number): Record<WatchFileStatus, number> {
    const { sql, params } = this.filtered(folderId, {});
    const out = Object.fromEntries(WATCH_FILE_STATUSES.map((s) => [s, 0])) as Record<WatchFileStatus, number>;
    for (const r of this.db
      .prepare(`SELECT shown, count(*) AS n FROM (${sql}) GROUP BY shown`)
      .all(params) as { shown: WatchFileStatus; n: number }[])
      out[r.shown] = r.n;
    return out;
  }

  /**
   * Taken files whose jobs are all finished but whose recorded outcome says otherwise (never recorded, or
   * a retried job finished differently): what `after` acts on.
   */
  settled(folderId: number): (WatchFileRow & { now_outcome: Outcome })[] {
    const { sql, params } = this.filtered(folderId, {});
    return (
      this.db
        .prepare(
          `SELECT * FROM (${sql}) WHERE status IN ('taken', 'duplicate') AND live = 0 AND n > 0
             AND coalesce(outcome, '') != now_outcome ORDER BY id`,
        )
        .all(params) as Record<string, unknown>[]
    ).map((r) => ({ ...WatchFileRow.parse(r), now_outcome: Outcome.parse(r.now_outcome) }));
  }

  private filtered(folderId: number, filter: FilesFilter): { sql: string; params: Record<string, unknown> } {
    const where = [`f.folder_id = @folder`, `f.status != 'output'`];
    const params: Record<string, unknown> = { folder: folderId };
    if (filter.search?.trim()) {
      where.push(`f.path LIKE @search ESCAPE '\\'`);
      params.search = `%${filter.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    }
    const inner = `
      WITH ${AGG}
      SELECT f.*, ${SHOWN} AS shown, d.path AS duplicate_path,
        coalesce(a.n, 0) AS n, coalesce(a.working, 0) + coalesce(a.waiting, 0) AS live,
        CASE WHEN a.failed > 0 THEN 'failed' WHEN a.completed > 0 THEN 'done' ELSE 'canceled' END AS now_outcome
      FROM watch_files f LEFT JOIN agg a ON a.file_id = f.id LEFT JOIN watch_files d ON d.id = f.duplicate_of
      WHERE ${where.join(' AND ')}`;
    if (!filter.statuses) return { sql: inner, params };
    params.statuses = JSON.stringify(filter.statuses);
    return {
      sql: `SELECT * FROM (${inner}) WHERE shown IN (SELECT value FROM json_each(@statuses))`,
      params,
    };
  }

  // ---- the watching process's heartbeat: folders show `inactive` when nobody watches them

  heartbeat(owner: string, now: number): void {
    this.q.putHeartbeat.run(JSON.stringify({ owner, at: now }));
  }

  dropHeartbeat(owner: string): void {
    this.q.dropHeartbeat.run(`%"owner":${JSON.stringify(owner)}%`);
  }

  /** When a watching process last said it was alive (0: never). */
  lastHeartbeat(): number {
    const raw = (this.q.heartbeat.get() as { value: string } | undefined)?.value;
    if (!raw) return 0;
    try {
      const parsed = z.object({ at: z.number() }).safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data.at : 0;
    } catch {
      return 0;
    }
  }
}
