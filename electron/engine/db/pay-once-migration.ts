import type Database from 'better-sqlite3';

/**
 * Migration 16: paying once in the real world (issue 32).
 * - `create_mark`: the newest dub the service listed just before a v2 create was sent (JSON, see
 *   flows/create-mark.ts). A lost answer's dub is looked for among the dubs listed before that one: on the
 *   service's own terms, whatever this machine's clock or time zone says.
 * - an index of the jobs whose create is under way: a job canceled meanwhile is followed until Dubdesk
 *   knows whether the service made its dub (db/canceled-creates.ts).
 * - `unclaimed_dubs`: after `restore-db`, the service's dubs that the restored queue does not know, each
 *   taken by its file's job instead of a new one being paid for (db/restored-dubs.ts).
 */
export function payOnceMigration(db: Database.Database): void {
  db.exec(`
    ALTER TABLE jobs ADD COLUMN create_mark TEXT;
    CREATE INDEX jobs_create_pending ON jobs (id) WHERE create_pending != 0;
    CREATE TABLE unclaimed_dubs (
      remote_id TEXT PRIMARY KEY,
      lists TEXT NOT NULL,
      name TEXT NOT NULL,
      dest_lang TEXT NOT NULL,
      source_lang TEXT,
      studio INTEGER,
      duration REAL,
      status INTEGER,
      found_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
}
