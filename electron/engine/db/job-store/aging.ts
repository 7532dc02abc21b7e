import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { vacuumSome } from '../vacuum';

/**
 * Finished jobs of the live list, as the `jobs_aging` index names them; named by it too: by itself SQLite
 * takes `jobs_live_state` for the states and walks every finished job.
 */
const AGING = `cleared_at IS NULL AND archived_at IS NULL AND state IN ('completed', 'failed', 'canceled')`;

/** Finished jobs leaving the live list for the history once they are older than the setting. */
export class JobAging {
  private readonly q;
  private readonly t: Transactions;

  constructor(private readonly db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      oldest: db.prepare(`SELECT min(updated_at) AS t FROM jobs INDEXED BY jobs_aging WHERE ${AGING}`),
      archive: db.prepare(
        `UPDATE jobs SET archived_at = @now WHERE id IN (
           SELECT id FROM jobs INDEXED BY jobs_aging WHERE ${AGING} AND updated_at < @before ORDER BY updated_at LIMIT @limit)`,
      ),
    };
  }

  /** When the oldest finished job of the live list finished (null: none), from the index's first entry. */
  oldestFinishedAt(): number | null {
    return (this.q.oldest.get() as { t: number | null }).t;
  }

  /** Moves up to `limit` finished jobs last changed before `before` into the history; returns how many. */
  archive(before: number, now: number, limit: number): number {
    return this.t.tx(() => {
      const n = this.q.archive.run({ before, now, limit }).changes;
      if (n) this.t.changes.someJobs();
      return n;
    });
  }

  /** After aging or clearing: free pages go back to the file system, a bounded number at a time. */
  vacuum(): void {
    vacuumSome(this.db);
  }
}
