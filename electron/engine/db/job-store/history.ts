import type { JobState } from '../../../../shared/contract/jobs';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { HistoryRow } from './rows';

/** Each job's history: every change of state, with its event and reason. */
export class JobHistory {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      insert: db.prepare(
        `INSERT INTO job_history (job_id, at, from_state, to_state, event, reason) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      insertMany: db.prepare(
        `INSERT INTO job_history (job_id, at, from_state, to_state, event, reason)
           SELECT value, @at, @from, @to, @event, @reason FROM json_each(@ids)`,
      ),
      list: db.prepare(
        `SELECT at, from_state, to_state, event, reason FROM job_history WHERE job_id = ? ORDER BY id`,
      ),
    };
  }

  append(
    id: number,
    at: number,
    from: JobState | null,
    to: JobState,
    event: string,
    reason: string | null,
    /** False for the entries of a bulk add: the engine logs the batch once, not each of its jobs. */
    notify = true,
  ): void {
    this.t.write(() => {
      this.q.insert.run(id, at, from, to, event, reason);
      if (notify) this.t.changes.logged({ jobId: id, from, to, event, reason });
    });
  }

  /** The same entry for many jobs, in one statement. */
  appendMany(
    ids: readonly number[],
    at: number,
    from: JobState | null,
    to: JobState,
    event: string,
    reason: string | null,
    notify = true,
  ): void {
    if (ids.length === 0) return;
    this.t.write(() => {
      this.q.insertMany.run({ ids: JSON.stringify(ids), at, from, to, event, reason });
      if (notify) for (const id of ids) this.t.changes.logged({ jobId: id, from, to, event, reason });
    });
  }

  of(id: number): HistoryRow[] {
    return this.q.list.all(id).map((r) => HistoryRow.parse(r));
  }
}
