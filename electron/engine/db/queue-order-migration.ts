import type Database from 'better-sqlite3';

/** A job in the live list: neither cleared by the user nor aged into the history. */
const LIVE = (r: string) => `${r}.cleared_at IS NULL AND ${r}.archived_at IS NULL`;

/** A source's place in the list: the first of its live jobs in the queue's order. */
const FIRST_ORDER = (source: string) =>
  `(SELECT min(queue_order) FROM jobs j WHERE j.source = ${source} AND ${LIVE('j')})`;

/** The time SQLite reads off the clock, in milliseconds, as the engine's own times are. */
const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

/**
 * 19: the queue and the money a user steers (issue 36).
 * - `jobs.queue_order`: the order the worker starts jobs in, which a user changes (`moveJobs`); a new job
 *   goes last. `live_sources.first_order` keeps each row of the list at its first job's place, so a page
 *   of rows in that order is still an index walk. Kept by triggers, in any process that writes.
 * - `jobs.charged_at`: when the service's charge was recorded (what the spending report dates by);
 *   `jobs.batch_id`: the batch a job was added with.
 * - `presets`: named sets of `add`'s options, shared by every face.
 */
export function queueOrderMigration(db: Database.Database): void {
  db.exec(`
    ALTER TABLE jobs ADD COLUMN queue_order INTEGER;
    UPDATE jobs SET queue_order = id;
    CREATE INDEX jobs_queue_order ON jobs (queue_order);
    -- The worker's walk through due uploads in the queue's order (the condition is the due query's own).
    CREATE INDEX jobs_submit_order ON jobs (queue_order) WHERE step = 'submit';

    ALTER TABLE live_sources ADD COLUMN first_order INTEGER;
    UPDATE live_sources SET first_order = ${FIRST_ORDER('live_sources.source')};
    CREATE INDEX live_sources_position ON live_sources (first_order, source);

    CREATE TRIGGER jobs_insert_order AFTER INSERT ON jobs WHEN new.queue_order IS NULL BEGIN
      UPDATE jobs SET queue_order = (SELECT coalesce(max(queue_order), 0) + 1 FROM jobs) WHERE id = new.id;
    END;
    CREATE TRIGGER jobs_update_position AFTER UPDATE OF queue_order, cleared_at, archived_at, source ON jobs BEGIN
      UPDATE live_sources SET first_order = ${FIRST_ORDER('live_sources.source')}
        WHERE source IN (new.source, old.source);
    END;
    CREATE TRIGGER jobs_delete_position AFTER DELETE ON jobs BEGIN
      UPDATE live_sources SET first_order = ${FIRST_ORDER('live_sources.source')} WHERE source = old.source;
    END;
    CREATE TRIGGER live_sources_insert_position AFTER INSERT ON live_sources BEGIN
      UPDATE live_sources SET first_order = ${FIRST_ORDER('new.source')} WHERE source = new.source;
    END;

    ALTER TABLE jobs ADD COLUMN charged_at INTEGER;
    UPDATE jobs SET charged_at = coalesce(completed_at, updated_at) WHERE credits_charged IS NOT NULL;
    CREATE INDEX jobs_charged ON jobs (charged_at) WHERE credits_charged IS NOT NULL;
    CREATE TRIGGER jobs_charged_at AFTER UPDATE OF credits_charged ON jobs
      WHEN (new.credits_charged IS NULL) <> (old.credits_charged IS NULL) BEGIN
      UPDATE jobs SET charged_at = CASE WHEN new.credits_charged IS NULL THEN NULL ELSE ${NOW_MS} END
        WHERE id = new.id;
    END;
    CREATE TRIGGER jobs_insert_charged AFTER INSERT ON jobs
      WHEN new.credits_charged IS NOT NULL AND new.charged_at IS NULL BEGIN
      UPDATE jobs SET charged_at = ${NOW_MS} WHERE id = new.id;
    END;

    ALTER TABLE jobs ADD COLUMN batch_id INTEGER;
    CREATE TABLE batches (id INTEGER PRIMARY KEY, created_at INTEGER NOT NULL);

    CREATE TABLE presets (
      name TEXT PRIMARY KEY COLLATE NOCASE,
      options TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    );
  `);
}
