import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFolderSync } from '../files/make-folder';
import { backupFolder, listBackups } from './backup';
import { checkWhole, damagedDatabase, isDamage, lostDatabase } from './damage';
import { migrate } from './migrations';
import { convertToIncrementalVacuum, preferIncrementalVacuum } from './vacuum';

import type { Db } from './types';

export type { Db };

/** A queue database gone or emptied beside its backups is damage (see `lostDatabase`): said, never opened. */
export function assertNotLost(file: string): void {
  const lost = lostDatabase(file, listBackups(file).length, backupFolder(file));
  if (lost) throw lost;
}

/**
 * Opens (and migrates) the queue database. A damaged file is named with the way back (the newest good
 * backup) instead of SQLite's raw words.
 */
export function openDatabase(file: string): Db {
  makeFolderSync(dirname(file));
  assertNotLost(file);
  let db: Db | undefined;
  try {
    db = new Database(file);
    preferIncrementalVacuum(db);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, file);
    checkWhole(db, {
      bytes: statSync(file).size,
      walBytes: statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0,
    });
    convertToIncrementalVacuum(db, file);
    return db;
  } catch (e) {
    db?.close();
    if (isDamage(e)) throw damagedDatabase(file, listBackups(file).length);
    throw e;
  }
}
