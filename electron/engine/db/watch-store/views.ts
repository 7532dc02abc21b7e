import { WATCH_FILE_STATUSES, type WatchFileStatus } from '../../../../shared/contract/watch';
import type { Db } from '../types';
import type { WatchFiles } from './files';
import { Outcome, ViewRow, WatchFileRow, type FilesFilter, type WatchFileViewRow } from './rows';

/**
 * The status a user sees: before a file is taken, its own; once taken, what its jobs say (the recorded
 * outcome once they were cleared from the queue). A duplicate stays one unless copying its results failed.
 */
const SHOWN = `
  CASE
    WHEN f.status = 'ready' THEN 'settling'
    WHEN f.status IN ('settling', 'waiting', 'attention', 'awaiting-approval') THEN f.status
    WHEN f.status = 'duplicate' AND coalesce(a.failed, 0) = 0 THEN 'duplicate'
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

/** Watched files as a user sees them: status from their jobs, pages, counts, and settled outcomes. */
export class WatchViews {
  constructor(
    private readonly db: Db,
    private readonly files: WatchFiles,
  ) {}

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
    const f = this.files.get(fileId);
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
}
