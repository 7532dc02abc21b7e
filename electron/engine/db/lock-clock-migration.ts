import type Database from 'better-sqlite3';

/**
 * Migration 22: the queue's lock carries the machine's monotonic clock at its holder's last heartbeat
 * (`heartbeat_mono`), so another process of this machine reads the heartbeat's age on a clock no step of
 * the wall clock moves. Null in a row written before (its age is read on the wall clock, as it was).
 */
export function lockClockMigration(db: Database.Database): void {
  db.exec(`ALTER TABLE runner_lock ADD COLUMN heartbeat_mono INTEGER;`);
}
