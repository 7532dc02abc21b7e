import type Database from 'better-sqlite3';

/** A job in the live list: neither cleared by the user nor aged into the history. */
const LIVE = (r: 'new' | 'old') => `${r}.cleared_at IS NULL AND ${r}.archived_at IS NULL`;

/**
 * Credits a job will still spend: its estimate until it is charged (what the header's "committed" sums). A
 * copy (`reuse_results`, set only when the job is inserted) spends nothing: its files are linked.
 */
const COMMITTED = (r: 'new' | 'old' | 'jobs') => `(CASE WHEN ${r}.credits_charged IS NULL
  AND ${r}.reuse_results = 0 AND ${r}.state NOT IN ('failed', 'canceled') AND ${r}.duration IS NOT NULL
  THEN (CAST(${r}.duration AS INTEGER) + (${r}.duration > CAST(${r}.duration AS INTEGER))) * (1 + ${r}.studio)
  ELSE 0 END)`;

const countIn = (r: 'new') => `
  INSERT INTO job_counts (state, n, committed, charged)
    VALUES (${r}.state, 1, ${COMMITTED(r)}, coalesce(${r}.credits_charged, 0))
    ON CONFLICT (state) DO UPDATE SET n = n + 1, committed = committed + excluded.committed,
      charged = charged + excluded.charged;`;
const countOut = (r: 'old') => `
  UPDATE job_counts SET n = n - 1, committed = committed - ${COMMITTED(r)},
    charged = charged - coalesce(${r}.credits_charged, 0) WHERE state = ${r}.state;`;
const sourceIn = (r: 'new') => `
  INSERT INTO live_sources (source, first_id, jobs) VALUES (${r}.source, ${r}.id, 1)
    ON CONFLICT (source) DO UPDATE SET jobs = jobs + 1, first_id = min(first_id, excluded.first_id);`;
const sourceOut = (r: 'old') => `
  UPDATE live_sources SET jobs = jobs - 1 WHERE source = ${r}.source;
  DELETE FROM live_sources WHERE source = ${r}.source AND jobs <= 0;
  UPDATE live_sources SET first_id = (SELECT min(id) FROM jobs WHERE source = ${r}.source
      AND cleared_at IS NULL AND archived_at IS NULL)
    WHERE source = ${r}.source AND first_id = ${r}.id;`;
const searchIn = (r: 'new') => `
  INSERT INTO job_search (rowid, source_name, source) VALUES (${r}.id, ${r}.source_name, ${r}.source);`;
const searchOut = (r: 'old') => `
  INSERT INTO job_search (job_search, rowid, source_name, source) VALUES ('delete', ${r}.id, ${r}.source_name, ${r}.source);`;

/**
 * 9: ten times the work (issue 23). The list, the header and the search must not read the whole history:
 * - `archived_at`: a finished job older than the history setting leaves the live list (still searchable);
 * - `job_counts`: jobs, committed and charged credits per state of the live list, kept by triggers in the
 *   same statement as the write (every writer, in any process, keeps them right);
 * - `live_sources`: each source of the live list with its first job, so a page of sources is an index walk;
 * - `job_search`: a trigram index over the source's name and path (FTS5, external content: no copy of the
 *   text; `detail=none` keeps it small, the LIKE checks each candidate against the row);
 * - partial indexes for what start and the runner count (leased, open jobs) and for aging.
 */
export function scaleMigration(db: Database.Database): void {
  db.exec(`
    ALTER TABLE jobs ADD COLUMN archived_at INTEGER;
    DROP INDEX jobs_shown;
    CREATE INDEX jobs_live ON jobs (id) WHERE cleared_at IS NULL AND archived_at IS NULL;
    CREATE INDEX jobs_live_state ON jobs (state, id) WHERE cleared_at IS NULL AND archived_at IS NULL;
    CREATE INDEX jobs_past ON jobs (id) WHERE cleared_at IS NOT NULL OR archived_at IS NOT NULL;
    CREATE INDEX jobs_aging ON jobs (updated_at)
      WHERE cleared_at IS NULL AND archived_at IS NULL AND state IN ('completed', 'failed', 'canceled');
    CREATE INDEX jobs_leased ON jobs (id) WHERE lease_token IS NOT NULL;
    CREATE INDEX jobs_open ON jobs (service) WHERE state NOT IN ('completed', 'failed', 'canceled');

    CREATE TABLE job_counts (
      state TEXT PRIMARY KEY,
      n INTEGER NOT NULL,
      committed INTEGER NOT NULL,
      charged INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO job_counts (state, n, committed, charged)
      SELECT state, count(*), sum(${COMMITTED('jobs')}), sum(coalesce(credits_charged, 0))
      FROM jobs WHERE cleared_at IS NULL AND archived_at IS NULL GROUP BY state;

    CREATE TABLE live_sources (
      source TEXT PRIMARY KEY,
      first_id INTEGER NOT NULL,
      jobs INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX live_sources_order ON live_sources (first_id);
    INSERT INTO live_sources (source, first_id, jobs)
      SELECT source, min(id), count(*) FROM jobs WHERE cleared_at IS NULL AND archived_at IS NULL GROUP BY source;

    CREATE VIRTUAL TABLE job_search USING fts5 (
      source_name, source, tokenize = 'trigram', detail = none, content = 'jobs', content_rowid = 'id'
    );
    INSERT INTO job_search (job_search) VALUES ('rebuild');

    CREATE TRIGGER jobs_insert_aggregates AFTER INSERT ON jobs BEGIN
      ${searchIn('new')}
    END;
    CREATE TRIGGER jobs_insert_live AFTER INSERT ON jobs WHEN ${LIVE('new')} BEGIN
      ${countIn('new')}
      ${sourceIn('new')}
    END;
    CREATE TRIGGER jobs_delete_aggregates AFTER DELETE ON jobs BEGIN
      ${searchOut('old')}
    END;
    CREATE TRIGGER jobs_delete_live AFTER DELETE ON jobs WHEN ${LIVE('old')} BEGIN
      ${countOut('old')}
      ${sourceOut('old')}
    END;
    CREATE TRIGGER jobs_update_count_out
      AFTER UPDATE OF state, cleared_at, archived_at, credits_charged, duration, studio ON jobs
      WHEN ${LIVE('old')} BEGIN ${countOut('old')} END;
    CREATE TRIGGER jobs_update_count_in
      AFTER UPDATE OF state, cleared_at, archived_at, credits_charged, duration, studio ON jobs
      WHEN ${LIVE('new')} BEGIN ${countIn('new')} END;
    CREATE TRIGGER jobs_update_source_out AFTER UPDATE OF cleared_at, archived_at, source ON jobs
      WHEN ${LIVE('old')} AND NOT (${LIVE('new')} AND new.source = old.source) BEGIN ${sourceOut('old')} END;
    CREATE TRIGGER jobs_update_source_in AFTER UPDATE OF cleared_at, archived_at, source ON jobs
      WHEN ${LIVE('new')} AND NOT (${LIVE('old')} AND new.source = old.source) BEGIN ${sourceIn('new')} END;
    CREATE TRIGGER jobs_update_search AFTER UPDATE OF source_name, source ON jobs BEGIN
      ${searchOut('old')}
      ${searchIn('new')}
    END;
  `);
}
