import type Database from 'better-sqlite3';

/**
 * Migration 21: which audio track of its source a job dubs.
 * - `audio_track`: `first` (what every job before this version dubbed), a track's number from 1, or a
 *   language (AudioTrackSchema).
 * - one live job per source, target language and track: another track of the same file into the same
 *   language is another dub, the same track added again is not.
 */
export function audioTrackMigration(db: Database.Database): void {
  db.exec(`
    ALTER TABLE jobs ADD COLUMN audio_track TEXT NOT NULL DEFAULT 'first';
    DROP INDEX IF EXISTS jobs_live_source_lang;
    CREATE UNIQUE INDEX jobs_live_source_lang ON jobs (source, dest_lang, audio_track)
      WHERE state NOT IN ('completed', 'canceled');
  `);
}
