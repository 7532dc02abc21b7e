import type Database from 'better-sqlite3';

/** A job in the history: cleared by the user or aged out of the live list. */
const PAST = (r: 'new' | 'old') => `(${r}.cleared_at IS NOT NULL OR ${r}.archived_at IS NOT NULL)`;
const add = (n: 1 | -1) => `UPDATE history_count SET n = n + (${n});`;

/**
 * 10: the History view's count (issue 23), kept by triggers in the same statement as the write, as
 * `job_counts` keeps the live list's: counting the history would read years of jobs. One row.
 */
export function historyCountMigration(db: Database.Database): void {
  db.exec(`
    CREATE TABLE history_count (n INTEGER NOT NULL);
    INSERT INTO history_count (n)
      SELECT count(*) FROM jobs WHERE cleared_at IS NOT NULL OR archived_at IS NOT NULL;
    CREATE TRIGGER jobs_insert_history AFTER INSERT ON jobs WHEN ${PAST('new')} BEGIN ${add(1)} END;
    CREATE TRIGGER jobs_delete_history AFTER DELETE ON jobs WHEN ${PAST('old')} BEGIN ${add(-1)} END;
    CREATE TRIGGER jobs_update_history_in AFTER UPDATE OF cleared_at, archived_at ON jobs
      WHEN NOT ${PAST('old')} AND ${PAST('new')} BEGIN ${add(1)} END;
    CREATE TRIGGER jobs_update_history_out AFTER UPDATE OF cleared_at, archived_at ON jobs
      WHEN ${PAST('old')} AND NOT ${PAST('new')} BEGIN ${add(-1)} END;
  `);
}
