import type Database from 'better-sqlite3';

/**
 * Migration 15: paying once in the real world (issue 32).
 * - `create_mark`: the newest dub the service listed just before a v2 create was sent (JSON, see
 *   flows/create-mark.ts). A lost answer's dub is looked for among the dubs listed before that one: on the
 *   service's own terms, whatever this machine's clock or time zone says.
 * - an index of the jobs whose create is under way: a job canceled meanwhile is followed until Dubdesk
 *   knows whether the service made its dub (db/canceled-creates.ts).
 */
export function payOnceMigration(db: Database.Database): void {
  db.exec(`
    ALTER TABLE jobs ADD COLUMN create_mark TEXT;
    CREATE INDEX jobs_create_pending ON jobs (id) WHERE create_pending != 0;
  `);
}
