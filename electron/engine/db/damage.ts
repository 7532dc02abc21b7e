import { statSync } from 'node:fs';
import { DubdeskError } from '../../../shared/contract/errors';

/** Tables every current database has: one missing means the file was damaged, not merely old. */
const TABLES = [
  'jobs',
  'outputs',
  'settings',
  'job_history',
  'watch_folders',
  'watch_files',
  'watch_file_jobs',
];

/** SQLite's words for a file that is not a whole database (corrupt pages, a broken schema, not SQLite at all). */
export function isDamage(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return true;
  return code === 'SQLITE_ERROR' && /malformed|no such (table|index|column)/.test((e as Error).message);
}

/**
 * Above this size the open does not read every page (`quick_check` took 0.7 s on a 100,000-job home, at
 * every start of every command): it checks the file's length against its pages and the schema, and SQLite
 * names a damaged page when one is read. `dubdesk doctor` and restoring a backup still check every page.
 */
export const FULL_CHECK_MAX_BYTES = 32 * 1024 * 1024;

/** The main file's and its WAL's sizes, when the caller knows them: a large file gets the cheap checks. */
export interface FileSizes {
  bytes: number;
  walBytes: number;
}

/** Throws SQLite's own words when the file fails its check or lacks a table it must have. */
export function checkWhole(
  db: {
    pragma(s: string, o: { simple: true }): unknown;
    prepare(s: string): { all(): unknown[] };
  },
  sizes?: FileSizes,
): void {
  const damaged = (why: string) => Object.assign(new Error(why), { code: 'SQLITE_CORRUPT' });
  if (sizes && sizes.bytes > FULL_CHECK_MAX_BYTES) {
    const pages =
      (db.pragma('page_count', { simple: true }) as number) *
      (db.pragma('page_size', { simple: true }) as number);
    // Pages not yet copied from the WAL may lie beyond the file's end; with an empty WAL none may.
    if (sizes.walBytes === 0 && sizes.bytes < pages)
      throw damaged('database disk image is malformed (truncated)');
  } else {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw damaged(String(check));
  }
  const names = new Set(
    (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map(
      (r) => r.name,
    ),
  );
  const missing = TABLES.filter((t) => !names.has(t));
  if (missing.length)
    throw Object.assign(new Error(`no such table: ${missing.join(', ')}`), { code: 'SQLITE_CORRUPT' });
}

/** The damaged database as one line naming it, and the way back (SQLite's words stay in the log, not here). */
export function damagedDatabase(file: string, backups: number): DubdeskError {
  const restore =
    backups > 0
      ? `Run \`dubdesk restore-db\` to put back the newest good backup (${backups} kept beside it in backups/); the damaged file is kept, renamed.`
      : 'No backup was made yet: move the file away (nothing else is deleted) and Dubdesk starts with an empty queue.';
  return new DubdeskError('disk', `The queue database ${file} is damaged and cannot be read.`, {
    remedy: restore,
  });
}

/**
 * A queue database that is gone, or empty (0 bytes, nothing in its WAL), while backups of it lie beside
 * it: damage (a failed copy, a sync tool, a disk that filled up), not a new queue. Taken for a new one, every
 * file watched or added again would be paid for once more. Null when the file is there, or there is no
 * backup (a new home).
 */
export function lostDatabase(file: string, backups: number, backupFolder: string): DubdeskError | null {
  if (backups === 0) return null;
  const size = statSync(file, { throwIfNoEntry: false })?.size;
  const walBytes = statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  if (size !== undefined && (size > 0 || walBytes > 0)) return null;
  const what = size === undefined ? 'is missing' : 'is empty (0 bytes)';
  return new DubdeskError(
    'disk',
    `The queue database ${file} ${what}, though ${backups === 1 ? 'a backup' : `${backups} backups`} of it ${backups === 1 ? 'is' : 'are'} in ${backupFolder}: it was damaged (a failed copy or disk), it is not a new queue.`,
    {
      remedy: `Run \`dubdesk restore-db\` to put back the newest good backup. To start with an empty queue instead (everything already dubbed is then forgotten), move ${backupFolder} away.`,
    },
  );
}
