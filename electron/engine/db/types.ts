import type Database from 'better-sqlite3';

/** The queue database's connection: only `db/` holds it (lint keeps it so). */
export type Db = Database.Database;
