import type Database from 'better-sqlite3';
import { audioPathMigration } from './audio-path-migration';
import { historyCountMigration } from './history-count-migration';
import { payOnceMigration } from './pay-once-migration';
import { audioTrackMigration } from './audio-track-migration';
import { queueOrderMigration } from './queue-order-migration';
import { scaleMigration } from './scale-migration';
import { searchMigration } from './search-migration';
import { watchRestartMigration } from './watch-migration';
import { ledgerMigration } from './ledger-migration';
import { deliverMigration } from './deliver-migration';
import { offLinkMigration } from './off-link-migration';

/** Each entry moves the schema one version up; never edit one that has shipped, add a new one. */
const MIGRATIONS: readonly ((db: Database.Database) => void)[] = [
  (db) => {
    db.exec(`
      CREATE TABLE jobs (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        source_kind TEXT NOT NULL CHECK (source_kind IN ('file', 'url')),
        source_name TEXT NOT NULL,
        source_type TEXT,
        source_bytes INTEGER,
        duration REAL,
        dest_lang TEXT NOT NULL,
        source_lang TEXT NOT NULL,
        api TEXT NOT NULL CHECK (api IN ('v2', 'v1', 'legacy')),
        studio INTEGER NOT NULL DEFAULT 0,
        out_dir TEXT NOT NULL,
        outputs_wanted TEXT NOT NULL,
        state TEXT NOT NULL,
        step TEXT NOT NULL CHECK (step IN ('submit', 'track', 'fetch', 'done')),
        remote_id TEXT,
        upload_url TEXT,
        upload_expires_at INTEGER,
        uploaded INTEGER NOT NULL DEFAULT 0,
        create_pending INTEGER NOT NULL DEFAULT 0,
        create_attempted_at INTEGER,
        abandoned_remote_ids TEXT NOT NULL DEFAULT '[]',
        remote_status INTEGER,
        progress REAL NOT NULL DEFAULT 0,
        waiting TEXT,
        error TEXT,
        error_kind TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_run_at INTEGER NOT NULL DEFAULT 0,
        lease_token TEXT,
        lease_expires_at INTEGER,
        measured_duration REAL,
        credits_charged INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        completed_at INTEGER
      );
      CREATE INDEX jobs_due ON jobs (step, next_run_at) WHERE step IN ('submit', 'fetch');
      CREATE INDEX jobs_state ON jobs (state);
      -- One live job per source and target language: adding it again is a no-op.
      CREATE UNIQUE INDEX jobs_live_source_lang ON jobs (source, dest_lang) WHERE state NOT IN ('completed', 'canceled');

      CREATE TABLE outputs (
        job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        path TEXT NOT NULL,
        bytes INTEGER,
        done INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (job_id, type)
      );

      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
  },
  // 2: the contract. Errors and waits carry contract codes; every state change is kept in job_history;
  // one runner per home through a lock row; jobs remember which service made them and what the source was.
  (db) => {
    db.exec(`
      ALTER TABLE jobs RENAME COLUMN error_kind TO error_code;
      UPDATE jobs SET error_code = CASE error_code
        WHEN 'input' THEN 'not-media' WHEN 'local' THEN 'disk' WHEN 'bad-request' THEN 'bad-request'
        WHEN 'auth' THEN 'auth' WHEN 'credits' THEN 'credits' WHEN 'not-found' THEN 'not-found'
        WHEN 'too-large' THEN 'too-large' WHEN 'remote-failed' THEN 'remote-failed'
        WHEN 'remote-missing' THEN 'remote-missing' WHEN 'network' THEN 'offline'
        ELSE 'service' END
      WHERE error_code IS NOT NULL;
      ALTER TABLE jobs ADD COLUMN error_remedy TEXT;
      ALTER TABLE jobs ADD COLUMN waiting_code TEXT;
      UPDATE jobs SET waiting_code = 'retry' WHERE waiting IS NOT NULL;
      -- '' for jobs made before: they belong to whichever service is configured.
      ALTER TABLE jobs ADD COLUMN service TEXT NOT NULL DEFAULT '';
      ALTER TABLE jobs ADD COLUMN pause_requested INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN watch_folder_id INTEGER;
      ALTER TABLE jobs ADD COLUMN naming TEXT NOT NULL DEFAULT 'suffix';
      -- With source_bytes, tells an unchanged source from a new export under the same name.
      ALTER TABLE jobs ADD COLUMN source_mtime INTEGER;
      CREATE INDEX jobs_source ON jobs (source, id);
      CREATE INDEX jobs_completed_source_lang ON jobs (source, dest_lang) WHERE state = 'completed';

      CREATE TABLE job_history (
        id INTEGER PRIMARY KEY,
        job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        at INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        event TEXT NOT NULL,
        reason TEXT
      );
      CREATE INDEX job_history_job ON job_history (job_id, id);
      INSERT INTO job_history (job_id, at, from_state, to_state, event, reason)
        SELECT id, created_at, NULL, state, 'migrated', NULL FROM jobs;

      CREATE TABLE runner_lock (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        heartbeat_at INTEGER NOT NULL,
        started_at INTEGER NOT NULL
      );
    `);
  },
  // 3: watched folders. A folder's preset is JSON (parsed with the contract's schema on the way out); each
  // version of each file found is a row; the jobs of a file are linked (a duplicate links the jobs it
  // shares), never owned: clearing jobs keeps the file's record and its outcome.
  (db) => {
    db.exec(`
      CREATE TABLE watch_folders (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        path TEXT NOT NULL UNIQUE,
        preset TEXT NOT NULL,
        preset_version INTEGER NOT NULL DEFAULT 1,
        paused INTEGER NOT NULL DEFAULT 0,
        -- What the watching process last found: starting, watching or unavailable.
        status TEXT NOT NULL DEFAULT 'starting',
        status_message TEXT,
        polled INTEGER NOT NULL DEFAULT 0,
        poll_reason TEXT,
        -- Grows with every change the watching process must act on (preset, pause, rescan asked).
        revision INTEGER NOT NULL DEFAULT 1,
        rescan_asked INTEGER NOT NULL DEFAULT 0,
        last_activity_at INTEGER,
        last_scan_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE watch_files (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        folder_id INTEGER NOT NULL REFERENCES watch_folders (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        -- The row for the newest version of the path; older versions keep their record and jobs.
        current INTEGER NOT NULL DEFAULT 1,
        version INTEGER NOT NULL DEFAULT 1,
        status TEXT NOT NULL CHECK (status IN
          ('settling', 'waiting', 'attention', 'ready', 'awaiting-approval', 'taken', 'duplicate', 'output')),
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        -- When size or mtime last changed: stable for the settle time means it stopped growing.
        changed_at INTEGER NOT NULL,
        -- Since when it has been waiting to be taken (the maximum wait counts from here).
        wait_since INTEGER NOT NULL,
        hash TEXT,
        preset_version INTEGER,
        duration REAL,
        credits INTEGER,
        approved INTEGER NOT NULL DEFAULT 0,
        forced INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        problem TEXT,
        next_check_at INTEGER,
        duplicate_of INTEGER,
        outcome TEXT,
        moved_to TEXT,
        gone INTEGER NOT NULL DEFAULT 0,
        first_seen_at INTEGER NOT NULL,
        taken_at INTEGER,
        updated_at INTEGER NOT NULL,
        -- Compare-and-set: a writer that read an older rev lost the race (the app and the CLI may both act).
        rev INTEGER NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX watch_files_current ON watch_files (folder_id, path) WHERE current = 1;
      CREATE INDEX watch_files_due ON watch_files (status, next_check_at);
      CREATE INDEX watch_files_content ON watch_files (folder_id, hash, preset_version);
      CREATE INDEX watch_files_taken ON watch_files (folder_id, taken_at);

      CREATE TABLE watch_file_jobs (
        file_id INTEGER NOT NULL REFERENCES watch_files (id) ON DELETE CASCADE,
        job_id INTEGER NOT NULL,
        -- 0: a job of an identical file this one shares instead of paying twice.
        own INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (file_id, job_id)
      );
      CREATE INDEX watch_file_jobs_job ON watch_file_jobs (job_id);

      CREATE INDEX jobs_watch_folder ON jobs (watch_folder_id, updated_at) WHERE watch_folder_id IS NOT NULL;
      CREATE INDEX outputs_path ON outputs (path);
      `);
  },
  // 4: upload once, dub many. A job may take part (`upload_once`); how its dub was made ('upload' or 'link'
  // from another dub's `original`, `donor_remote_id`); a link the service refused makes it upload instead.
  // And an index of the tracked jobs (issue 11: a poll and the runner's loop scanned the whole queue).
  (db) => {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN upload_once INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN made_from TEXT CHECK (made_from IN ('upload', 'link'));
      ALTER TABLE jobs ADD COLUMN donor_remote_id TEXT;
      ALTER TABLE jobs ADD COLUMN link_refused INTEGER NOT NULL DEFAULT 0;
      -- The poller's and the runner's "which jobs are tracked" without reading every job of a big queue.
      CREATE INDEX jobs_track ON jobs (id) WHERE step = 'track';
    `);
  },
  // 5: clearing a finished dub hides it instead of forgetting it. Dubdesk still knows what it dubbed (adding
  // the same file again is skipped, not paid again) and which files are its own results (never dubbed again).
  (db) => {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN cleared_at INTEGER;
      CREATE INDEX jobs_shown ON jobs (id) WHERE cleared_at IS NULL;
    `);
  },
  // 6: Dubdesk's results by device and inode, so they are known under any path (a symlinked folder).
  (db) => {
    db.exec(`CREATE TABLE own_files (file_id TEXT PRIMARY KEY, path TEXT NOT NULL) WITHOUT ROWID;`);
  },
  // 7: a source is its content: a touched file or a copy under another name is the same source.
  (db) => {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN source_hash TEXT;
      CREATE INDEX jobs_source_hash ON jobs (source_hash, dest_lang) WHERE source_hash IS NOT NULL;
      CREATE TABLE content_hashes (
        path TEXT PRIMARY KEY,
        size INTEGER NOT NULL,
        mtime_ms INTEGER NOT NULL,
        hash TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
  // 8: a copy of a dubbed file gets its own result names at no charge: `reuse_results` marks a job whose
  // content another job dubs (its files are linked, nothing is sent); `copied_from` names the result it got.
  (db) => {
    db.exec(`
      ALTER TABLE jobs ADD COLUMN reuse_results INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN copied_from TEXT;
    `);
  },
  // 9: ten times the work (issue 23).
  scaleMigration,
  // 10: the History view's count, kept by triggers.
  historyCountMigration,
  // 11: an idle watcher's every turn asks each folder "is a file ready?"; answered from the folder index
  // alone, that read all of a folder's files (10,000 taken ones: about a millisecond, each turn, each folder).
  (db) => {
    db.exec(`CREATE INDEX watch_files_status ON watch_files (folder_id, status);`);
  },
  // 12: each result's content, so a copy of one dropped into a watched folder (or added) is known as
  // Dubdesk's own result and not paid for again (see db/result-contents.ts).
  (db) => {
    db.exec(`
      ALTER TABLE outputs ADD COLUMN content_hash TEXT;
      CREATE INDEX outputs_content ON outputs (content_hash) WHERE content_hash IS NOT NULL;
    `);
  },
  // 13: the search index per source, not per job.
  searchMigration,
  // 14: what a restart need not look through again (watch-migration.ts).
  watchRestartMigration,
  // 15: the credits the queue recorded as charged, per service (ledger-migration.ts).
  ledgerMigration,
  // 16: paying once in the real world: a skewed clock, a restored database (pay-once-migration.ts).
  payOnceMigration,
  // 17: the audio path: what a job sends, the sounds it stages (audio-path-migration.ts).
  audioPathMigration,
  // 18: what is handed on: the batch's delivery choices and each dub's QC on the job, the packages
  // (deliver-migration.ts).
  deliverMigration,
  // 19: the queue's order, charges' dates, batches and named presets (queue-order-migration.ts).
  queueOrderMigration,
  // 20: the uploads that may send nothing, in the queue's order (off-link-migration.ts).
  offLinkMigration,
  // 21: which audio track of its source a job dubs (audio-track-migration.ts).
  audioTrackMigration,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class NewerDatabaseError extends Error {}

/**
 * Brings the schema to SCHEMA_VERSION (`to`: an older one, for the tests of an upgrade) in one transaction;
 * refuses a database from a newer Dubdesk.
 */
export function migrate(db: Database.Database, file: string, to = SCHEMA_VERSION): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new NewerDatabaseError(
      `${file} was written by a newer version of Dubdesk (schema ${current}, this one knows ${SCHEMA_VERSION}). Update Dubdesk, or use another --home.`,
    );
  }
  if (current >= to) return;
  db.transaction(() => {
    // Read again under the write lock: another process opening the same new home at the same instant may
    // have migrated it while this one waited (else: "table jobs already exists").
    const now = db.pragma('user_version', { simple: true }) as number;
    for (let v = now; v < to; v++) MIGRATIONS[v]?.(db);
    db.pragma(`user_version = ${Math.max(now, to)}`);
  }).immediate();
}
