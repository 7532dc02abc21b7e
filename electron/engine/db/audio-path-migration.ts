import type Database from 'better-sqlite3';

/**
 * Migration 17: the audio path (issue 34).
 * - `send`: what a job sends (`audio`: the source's sound alone, its video rebuilt here; `file`: the whole
 *   file, as every job before this version did).
 * - `staged_audio`, `staged_type`: the extracted sound it sends and its type, in the data folder's staging
 *   area (db/job-store/staged-audio.ts says which are still needed).
 * - `dubbed_audio`: the dubbed sound fetched to rebuild the video from.
 */
export function audioPathMigration(db: Database.Database): void {
  db.exec(`
    ALTER TABLE jobs ADD COLUMN send TEXT NOT NULL DEFAULT 'file';
    ALTER TABLE jobs ADD COLUMN staged_audio TEXT;
    ALTER TABLE jobs ADD COLUMN staged_type TEXT;
    ALTER TABLE jobs ADD COLUMN dubbed_audio TEXT;
  `);
}
