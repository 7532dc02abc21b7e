import { basename } from 'node:path';
import { join } from 'node:path';
import { makeFolderSync } from '../files/make-folder';
import { backupFolder } from './backup';
import type { Db } from './types';

/** SQLite's `auto_vacuum` value for INCREMENTAL. */
const INCREMENTAL = 2;
/** Pages given back to the file system after a clear or an aging pass (4 KiB each: up to 8 MiB a time). */
const PAGES_PER_PASS = 2048;

/** A new, empty database: set before the first table, it needs no VACUUM. */
export function preferIncrementalVacuum(db: Db): void {
  db.pragma(`auto_vacuum = ${INCREMENTAL}`);
}

/**
 * A database made before incremental vacuum must be rewritten once (VACUUM) for the setting to hold: a copy
 * is taken first into `backups/` (VACUUM INTO: consistent, synchronous), then the file is rewritten. Another
 * process holding the file makes it fail: it is tried again at the next open, nothing is lost meanwhile.
 * Returns what happened, for the log.
 */
export function convertToIncrementalVacuum(db: Db, file: string, now = new Date()): string | null {
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return null;
  try {
    const dir = backupFolder(file);
    makeFolderSync(dir, 0o700);
    const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '-');
    const copy = join(dir, `${basename(file, '.db')}-${stamp}.db`);
    db.prepare('VACUUM INTO ?').run(copy);
    db.pragma(`auto_vacuum = ${INCREMENTAL}`);
    db.exec('VACUUM');
    return `converted to incremental vacuum (backup: ${copy})`;
  } catch (e) {
    return `not converted to incremental vacuum yet: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Gives free pages back to the file system, a bounded number at a time (after clears and aging). */
export function vacuumSome(db: Db): void {
  if (db.pragma('auto_vacuum', { simple: true }) !== INCREMENTAL) return;
  if ((db.pragma('freelist_count', { simple: true }) as number) === 0) return;
  db.pragma(`incremental_vacuum(${PAGES_PER_PASS})`);
}
