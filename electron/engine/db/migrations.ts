import type Database from 'better-sqlite3';

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
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class NewerDatabaseError extends Error {}

/** Brings the schema to SCHEMA_VERSION in one transaction; refuses a database from a newer Dubdesk. */
export function migrate(db: Database.Database, file: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new NewerDatabaseError(
      `${file} was written by a newer version of Dubdesk (schema ${current}, this one knows ${SCHEMA_VERSION}). Update Dubdesk, or use another --home.`,
    );
  }
  if (current === SCHEMA_VERSION) return;
  db.transaction(() => {
    for (let v = current; v < SCHEMA_VERSION; v++) MIGRATIONS[v]?.(db);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
