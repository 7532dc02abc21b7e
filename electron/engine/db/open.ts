import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFolderSync } from '../files/make-folder';
import { listBackups } from './backup';
import { checkWhole, damagedDatabase, isDamage } from './damage';
import { migrate } from './migrations';
import { convertToIncrementalVacuum, preferIncrementalVacuum } from './vacuum';

import type { Db } from './types';

export type { Db };

/**
 * Opens (and migrates) the queue database. A damaged file is named with the way back (the newest good
 * backup) instead of SQLite's raw words.
 */
export function openDatabase(file: string): Db {
  makeFolderSync(dirname(file));
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
