import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../electron/engine/db/open';

/**
 * A database over a real file in `home` whose every statement run is recorded, so a test can explain each
 * afterwards (`plans`: SQLite's query plan for each, with the arguments it ran with).
 */
export function recordingDb(home: string): {
  db: Db;
  ran: { sql: string; args: unknown[] }[];
  plans: () => { sql: string; plan: string[] }[];
} {
  const db = openDatabase(join(home, 'dubdesk.db'));
  const prepare = db.prepare.bind(db);
  const ran: { sql: string; args: unknown[] }[] = [];
  (db as { prepare: (sql: string) => Database.Statement }).prepare = (sql: string) => {
    const st = prepare(sql);
    for (const m of ['all', 'get', 'run'] as const) {
      const f = st[m].bind(st) as (...a: unknown[]) => unknown;
      (st as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => {
        ran.push({ sql, args });
        return f(...args);
      };
    }
    return st;
  };
  const plans = () =>
    ran.map(({ sql, args }) => ({
      sql,
      plan: (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail),
    }));
  return { db, ran, plans };
}
