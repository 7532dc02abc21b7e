import type { Statement } from 'better-sqlite3';
import type { Db } from './types';

/** Statements prepared once per database: preparing one costs more than running it, per job and per file. */
const prepared = new WeakMap<Db, Map<string, Statement>>();

/** `db.prepare(sql)`, prepared the first time only. */
export function statement(db: Db, sql: string): Statement {
  let map = prepared.get(db);
  if (!map) prepared.set(db, (map = new Map()));
  let stmt = map.get(sql);
  if (!stmt) map.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
