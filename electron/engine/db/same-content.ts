import type { Statement } from 'better-sqlite3';
import type { Db } from './open';
import { JobRow } from './job-store/rows';

/** What makes two jobs the same dub: the same content, target, source language and quality. */
export type DubKey = Pick<JobRow, 'source_hash' | 'dest_lang' | 'source_lang' | 'studio'>;

/** Statements prepared once per database: a bulk cancel of 10,000 jobs wakes copies 10,000 times. */
const prepared = new WeakMap<Db, Map<string, Statement>>();
function statement(db: Db, sql: string): Statement {
  let map = prepared.get(db);
  if (!map) prepared.set(db, (map = new Map()));
  let stmt = map.get(sql);
  if (!stmt) map.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}

const SAME = `source_hash = @source_hash AND dest_lang = @dest_lang AND source_lang = @source_lang AND studio = @studio`;

/**
 * The jobs of one content, wherever its files lie: the completed dub a copy takes its results from, and the
 * live job a copy waits for. A copy (`reuse_results`) never carries the dub itself.
 */
export function completedDubsOf(db: Db, key: DubKey): JobRow[] {
  if (!key.source_hash) return [];
  return statement(db, `SELECT * FROM jobs WHERE ${SAME} AND state = 'completed' ORDER BY id DESC`)
    .all(params(key))
    .map((r) => JobRow.parse(r));
}

/** The job that is dubbing this content now (or waits its turn to), other than `id`; null when none. */
export function carrierOf(db: Db, key: DubKey, id: number): JobRow | null {
  if (!key.source_hash) return null;
  const row = statement(
    db,
    `SELECT * FROM jobs WHERE ${SAME} AND id <> @id AND reuse_results = 0
        AND state IN ('queued', 'uploading', 'submitted', 'processing', 'downloading', 'paused')
        ORDER BY id LIMIT 1`,
  ).get({ ...params(key), id });
  return row ? JobRow.parse(row) : null;
}

/** Copies waiting for this content's dub look again now (it completed, failed or was canceled). */
export function wakeCopyWaiters(db: Db, key: DubKey): void {
  if (!key.source_hash) return;
  statement(
    db,
    `UPDATE jobs SET next_run_at = 0 WHERE ${SAME} AND reuse_results = 1 AND state = 'queued'
      AND waiting_code = 'first-upload'`,
  ).run(params(key));
}

function params(key: DubKey) {
  return {
    source_hash: key.source_hash,
    dest_lang: key.dest_lang,
    source_lang: key.source_lang,
    studio: key.studio,
  };
}
