import type Database from 'better-sqlite3';

/**
 * The condition of `jobs_submit_off_link`: the uploads that may send nothing over the user's link (a copy of
 * results, a URL, upload-once's other languages; see `db/job-store/due.ts`). A query names it word for word
 * to walk the index (SQLite uses a partial index only then).
 */
export const MAY_BE_OFF_LINK = `(reuse_results = 1 OR source_kind = 'url' OR upload_once = 1)`;

/**
 * 20: the runner's claim walks only the uploads that may send nothing to find those that jump the queue,
 * instead of the next 256 due uploads at every claim (a batch of files rarely has any).
 */
export function offLinkMigration(db: Database.Database): void {
  db.exec(
    `CREATE INDEX jobs_submit_off_link ON jobs (queue_order) WHERE step = 'submit' AND ${MAY_BE_OFF_LINK}`,
  );
}
