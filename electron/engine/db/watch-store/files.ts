import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { PresentRow, WatchFileRow, type FilePatch, type FileRowStatus } from './rows';

/** The files found in watched folders: one row per version, written compare-and-set. */
export class WatchFiles {
  private readonly q;
  private readonly updates = new Map<string, ReturnType<Db['prepare']>>();
  private readonly t: Transactions;

  constructor(private readonly db: Db) {
    this.t = transactionsOf(db);
    this.q = {
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
      deleteFile: db.prepare(`DELETE FROM watch_files WHERE id = ? AND rev = ? RETURNING folder_id`).pluck(),
      due: db.prepare(
        `SELECT * FROM watch_files WHERE status IN ('settling', 'waiting') AND next_check_at <= ?
           AND folder_id = ? ORDER BY next_check_at, id LIMIT ?`,
      ),
      withStatus: db.prepare(
        `SELECT * FROM watch_files WHERE folder_id = ? AND status = ? ORDER BY id LIMIT ?`,
      ),
      nextCheck: db.prepare(
        `SELECT min(next_check_at) AS at FROM watch_files WHERE status IN ('settling', 'waiting')
           AND folder_id = ?`,
      ),
      shiftWaits: db
        .prepare(
          `UPDATE watch_files SET next_check_at = next_check_at - @back, changed_at = changed_at - @back,
             wait_since = wait_since - @back, rev = rev + 1
           WHERE status IN ('settling', 'waiting') RETURNING folder_id`,
        )
        .pluck(),
      recheck: db.prepare(
        `UPDATE watch_files SET next_check_at = ?, rev = rev + 1 WHERE folder_id = ? AND status = 'settling'`,
      ),
      setGone: db
        .prepare(
          `UPDATE watch_files SET gone = ?, rev = rev + 1 WHERE id IN (SELECT value FROM json_each(?))
           RETURNING folder_id`,
        )
        .pluck(),
      hasStatus: db.prepare(`SELECT 1 FROM watch_files WHERE folder_id = ? AND status = ? LIMIT 1`),
      sameContent: db.prepare(
        `SELECT * FROM watch_files WHERE folder_id = ? AND hash = ? AND preset_version = ? AND id != ?
           AND status IN ('taken', 'duplicate') ORDER BY id`,
      ),
      present: db.prepare(
        `SELECT id, path, status, size, mtime_ms, moved_to, gone FROM watch_files
           WHERE folder_id = ? AND current = 1`,
      ),
      toolStamped: db.prepare(
        `SELECT id, path, status, size, mtime_ms, moved_to, gone FROM watch_files
           WHERE folder_id = ? AND current = 1 AND status != 'output' AND mtime_ms % 1000 = 0`,
      ),
      // Any job's result, not only this folder's: a folder watching another one's output folder would
      // dub its dubs (and pay for them). `reprocess` still takes one on purpose.
      ownOutput: db.prepare(`SELECT 1 FROM outputs WHERE path = ? LIMIT 1`),
    };
  }

  get(id: number): WatchFileRow | undefined {
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

  insert(f: {
    folder_id: number;
    path: string;
    version: number;
    status: FileRowStatus;
    size: number;
    mtime_ms: number;
    next_check_at: number | null;
    now: number;
  }): number {
    return this.t.write(() => {
      const id = Number(this.q.insertFile.run(f).lastInsertRowid);
      this.t.changes.folder(f.folder_id);
      return id;
    });
  }

  /** Compare-and-set, like `update`. */
  delete(id: number, rev: number): boolean {
    return this.t.write(() => this.wrote(this.q.deleteFile.get(id, rev)));
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
      stmt = this.db
        .prepare(
          `UPDATE watch_files SET ${sets.join(', ')} WHERE id = @__id AND rev = @__rev RETURNING folder_id`,
        )
        .pluck();
      this.updates.set(sig, stmt);
    }
    const values: Record<string, unknown> = { ...patch, __id: id, __rev: rev, __now: now };
    if ('problem' in patch) values.problem = patch.problem ? JSON.stringify(patch.problem) : null;
    const run = stmt;
    return this.t.write(() => this.wrote(run.get(values)));
  }

  /** A row of `folder` was written (`undefined`: none was): its folder is told as changed. */
  private wrote(folder: unknown): boolean {
    if (typeof folder !== 'number') return false;
    this.t.changes.folder(folder);
    return true;
  }

  /** Rows due for a look: settling or waiting, their time come. */
  due(folderId: number, now: number, limit: number): WatchFileRow[] {
    return this.q.due.all(now, folderId, limit).map((r) => WatchFileRow.parse(r));
  }

  /** When the folder's next settling or waiting file is due a look (null: none is). */
  nextCheckAt(folderId: number): number | null {
    return (this.q.nextCheck.get(folderId) as { at: number | null }).at;
  }

  withStatus(folderId: number, status: FileRowStatus, limit = 1_000_000): WatchFileRow[] {
    return this.q.withStatus.all(folderId, status, limit).map((r) => WatchFileRow.parse(r));
  }

  /** Every settling file of the folder is looked at again at `now` (a watcher starts on it). */
  recheckSettling(folderId: number, now: number): void {
    this.t.write(() => {
      if (this.q.recheck.run(now, folderId).changes) this.t.changes.folder(folderId);
    });
  }

  /**
   * The wall clock stepped back `back` ms: every settling or waiting file's times move back with it, so its
   * settle and its wait keep their real length (not an hour more after an hour's step).
   */
  shiftWaits(back: number): void {
    this.t.write(() => {
      const folders = new Set(this.q.shiftWaits.all({ back }) as number[]);
      for (const id of folders) this.t.changes.folder(id);
    });
  }

  hasStatus(folderId: number, status: FileRowStatus): boolean {
    return this.q.hasStatus.get(folderId, status) !== undefined;
  }

  /** Taken files with this content and preset version (other than `exceptId`). */
  sameContent(folderId: number, hash: string, presetVersion: number, exceptId: number): WatchFileRow[] {
    return this.q.sameContent.all(folderId, hash, presetVersion, exceptId).map((r) => WatchFileRow.parse(r));
  }

  /** Current rows, for a full scan to tell unchanged files, and paths it no longer finds, in one query. */
  present(folderId: number): PresentRow[] {
    return this.q.present.all(folderId).map((r) => PresentRow.parse(r));
  }

  /**
   * Current files whose mtime is a whole second: set by a tool (tar, unzip, `touch -d`, a copy of such a
   * file), which may set the same one again on other content, where a snapshot of paths and mtimes sees
   * no change.
   */
  toolStamped(folderId: number): PresentRow[] {
    return this.q.toolStamped.all(folderId).map((r) => PresentRow.parse(r));
  }

  setGone(ids: readonly number[], gone: boolean): void {
    if (ids.length === 0) return;
    this.t.write(() => {
      for (const folder of new Set(this.q.setGone.all(gone ? 1 : 0, JSON.stringify(ids)))) this.wrote(folder);
    });
  }

  /** A result this folder's own jobs wrote (or are writing) at `path`. */
  isOwnOutput(path: string): boolean {
    return this.q.ownOutput.get(path) !== undefined;
  }
}
