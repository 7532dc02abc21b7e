import type Database from 'better-sqlite3';

/**
 * What is handed on (issue 35).
 * - `jobs.deliver`: what the batch asked for besides the dub (package, subtitle formats, the package's
 *   default sound, the loudness target), as JSON; null for jobs made before (nothing is made for them).
 * - `jobs.qc`: the finished dub's QC as JSON (QcSchema); null until it has run. A completed job with a
 *   `deliver` and no `qc` is one whose checks are still to do: the partial index finds them at once.
 * - `packages`: one row per source and output folder whose package was asked for: `waiting` (its languages
 *   still finishing, or due to be made again), `making`, `done` (at `path`, with the jobs in it) or `failed`.
 *   A run that stops while making one finds it `making` and makes it again.
 */
export function deliverMigration(db: Database.Database): void {
  db.exec(`
    ALTER TABLE jobs ADD COLUMN deliver TEXT;
    ALTER TABLE jobs ADD COLUMN qc TEXT;
    CREATE INDEX jobs_deliver_due ON jobs (id) WHERE state = 'completed' AND deliver IS NOT NULL AND qc IS NULL;
    CREATE TABLE packages (
      id INTEGER PRIMARY KEY,
      source TEXT NOT NULL,
      out_dir TEXT NOT NULL,
      format TEXT NOT NULL CHECK (format IN ('mkv', 'mp4')),
      default_audio TEXT NOT NULL DEFAULT 'original',
      naming TEXT NOT NULL DEFAULT 'suffix',
      state TEXT NOT NULL CHECK (state IN ('waiting', 'making', 'done', 'failed')),
      -- Package now: made with the languages finished so far, without waiting for the others.
      now INTEGER NOT NULL DEFAULT 0,
      job_ids TEXT NOT NULL DEFAULT '[]',
      languages TEXT NOT NULL DEFAULT '[]',
      path TEXT,
      error TEXT,
      updated_at INTEGER NOT NULL,
      UNIQUE (source, out_dir)
    );
    CREATE INDEX packages_due ON packages (state) WHERE state IN ('waiting', 'making');
  `);
}
