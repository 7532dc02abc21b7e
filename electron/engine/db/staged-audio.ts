import type { Db } from './open';
import { statement } from './statements';

/**
 * Whether another job still needs this extracted sound: one of the same source that has not sent it yet
 * (its dub not created), and is not over. The languages of one file share one extraction.
 */
export function stagedAudioNeeded(db: Db, path: string, exceptId: number): boolean {
  return (
    statement(
      db,
      `SELECT 1 FROM jobs WHERE staged_audio = ? AND id <> ? AND step = 'submit'
          AND state NOT IN ('completed', 'canceled') LIMIT 1`,
    ).get(path, exceptId) !== undefined
  );
}

/** Every staged file a job may still use: sounds to send, dubbed sounds to rebuild from. */
export function stagedFilesInUse(db: Db): Set<string> {
  const rows = statement(
    db,
    `SELECT staged_audio AS path FROM jobs WHERE staged_audio IS NOT NULL AND step = 'submit'
        AND state NOT IN ('completed', 'canceled')
     UNION SELECT dubbed_audio FROM jobs WHERE dubbed_audio IS NOT NULL AND step = 'fetch'`,
  ).all() as { path: string }[];
  return new Set(rows.map((r) => r.path));
}
