import type { WatchPreset } from '../../../../shared/contract/watch';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { WatchFolderRow } from './rows';

/** The watched folders: their presets, what the watching process found, and asked rescans. */
export class WatchFolderRows {
  private readonly q;
  private readonly t: Transactions;

  constructor(private readonly db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      folders: db.prepare(`SELECT * FROM watch_folders ORDER BY id`),
      folder: db.prepare(`SELECT * FROM watch_folders WHERE id = ?`),
      status: db.prepare(`SELECT status FROM watch_folders WHERE id = ?`).pluck(),
      insertFolder: db.prepare(
        `INSERT INTO watch_folders (path, preset, created_at, updated_at) VALUES (?, ?, ?, ?)`,
      ),
      removeFolder: db.prepare(`DELETE FROM watch_folders WHERE id = ?`),
      folderState: db.prepare(
        `UPDATE watch_folders SET status = @status, status_message = @status_message, polled = @polled,
           poll_reason = @poll_reason WHERE id = @id`,
      ),
      activity: db.prepare(`UPDATE watch_folders SET last_activity_at = ? WHERE id = ?`),
      outcomesSignature: db.prepare(`UPDATE watch_folders SET outcomes_signature = ? WHERE id = ?`),
      snapshot: db.prepare(`UPDATE watch_folders SET snapshot = ? WHERE id = ?`),
      // By (folder, status) SQLite walked every taken file of the folder: a few have a problem, if any.
      hasProblems: db.prepare(
        `SELECT 1 FROM watch_files INDEXED BY watch_files_problem WHERE folder_id = ? AND problem IS NOT NULL
           AND status IN ('taken', 'duplicate') LIMIT 1`,
      ),
      scanned: db.prepare(`UPDATE watch_folders SET last_scan_at = ? WHERE id = ?`),
      askRescan: db.prepare(
        `UPDATE watch_folders SET rescan_asked = rescan_asked + 1, revision = revision + 1 WHERE id = ?`,
      ),
    };
  }

  all(): WatchFolderRow[] {
    return this.q.folders.all().map((r) => WatchFolderRow.parse(r));
  }

  get(id: number): WatchFolderRow | undefined {
    const row = this.q.folder.get(id);
    return row ? WatchFolderRow.parse(row) : undefined;
  }

  /** The folder's status alone (null: no such folder), asked at each change of it: no row parsed. */
  status(id: number): string | null {
    return (this.q.status.get(id) as string | undefined) ?? null;
  }

  insert(path: string, preset: WatchPreset, now: number): number {
    return this.t.write(() => {
      const id = Number(this.q.insertFolder.run(path, JSON.stringify(preset), now, now).lastInsertRowid);
      this.t.changes.folder(id, true);
      return id;
    });
  }

  /** A user's change: the watching process notices it through `revision`. */
  update(
    id: number,
    patch: { preset?: WatchPreset; presetVersion?: number; paused?: boolean },
    now: number,
  ): void {
    const sets = ['revision = revision + 1', 'updated_at = @now'];
    if (patch.preset) sets.push('preset = @preset');
    if (patch.presetVersion !== undefined) sets.push('preset_version = @preset_version');
    if (patch.paused !== undefined) sets.push('paused = @paused');
    this.written(id, true, () =>
      this.db.prepare(`UPDATE watch_folders SET ${sets.join(', ')} WHERE id = @id`).run({
        id,
        now,
        preset: patch.preset ? JSON.stringify(patch.preset) : null,
        preset_version: patch.presetVersion ?? null,
        paused: patch.paused ? 1 : 0,
      }),
    );
  }

  remove(id: number): boolean {
    return this.written(id, true, () => this.q.removeFolder.run(id));
  }

  /** What the watching process found (not a user's change: no new revision). */
  setState(
    id: number,
    s: {
      status: WatchFolderRow['status'];
      message: string | null;
      polled: boolean;
      pollReason: string | null;
    },
  ): void {
    this.written(id, false, () =>
      this.q.folderState.run({
        id,
        status: s.status,
        status_message: s.message,
        polled: s.polled ? 1 : 0,
        poll_reason: s.pollReason,
      }),
    );
  }

  activity(id: number, now: number): void {
    this.written(id, false, () => this.q.activity.run(now, id));
  }

  scanned(id: number, now: number): void {
    this.written(id, false, () => this.q.scanned.run(now, id));
  }

  /** The folder's jobs (`WatchLinks.jobSignature`) when every outcome they make was recorded. */
  outcomesRecorded(id: number, signature: string): void {
    this.written(id, false, () => this.q.outcomesSignature.run(signature, id));
  }

  /** The file name of the folder's snapshot as of its last catch-up. */
  setSnapshot(id: number, name: string | null): void {
    this.written(id, false, () => this.q.snapshot.run(name, id));
  }

  /** Whether a taken file carries a problem (its original could not be moved): outcomes are looked at again. */
  hasProblems(id: number): boolean {
    return this.q.hasProblems.get(id) !== undefined;
  }

  /** `rescan_asked` only grows: the watching process rescans when it differs from the count it saw. */
  askRescan(id: number): void {
    this.written(id, true, () => this.q.askRescan.run(id));
  }

  /** One write of a folder's row; `byUser`: a change to the folder table the watching process must read. */
  private written(id: number, byUser: boolean, write: () => { changes: number }): boolean {
    return this.t.write(() => {
      const wrote = write().changes > 0;
      if (wrote) this.t.changes.folder(id, byUser);
      return wrote;
    });
  }
}
