import type { Db } from '../types';
import { OutputRow } from './rows';
import { transactionsOf, type Transactions } from '../transactions';

/**
 * Rows read with `rowid AS seq` and no ORDER BY (see `dueQuery` for why hot queries avoid one), put back
 * in the order they were inserted.
 */
function inRecordOrder(rows: unknown[]): unknown[] {
  return (rows as { seq: number }[]).sort((a, b) => a.seq - b.seq);
}

/** The files each job writes: recorded before they are written, marked done once whole on disk. */
export class JobOutputs {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      outputs: db.prepare(`SELECT rowid AS seq, * FROM outputs WHERE job_id = ?`),
      outputsOf: db.prepare(
        `SELECT rowid AS seq, * FROM outputs WHERE job_id IN (SELECT value FROM json_each(?))`,
      ),
      put: db.prepare(`
        INSERT INTO outputs (job_id, type, path, bytes, done) VALUES (@job_id, @type, @path, @bytes, @done)
        ON CONFLICT (job_id, type) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, done = excluded.done`),
      clearPending: db.prepare(`DELETE FROM outputs WHERE job_id = ? AND done = 0`),
      recorded: db.prepare(
        `SELECT DISTINCT path FROM outputs WHERE path IN (SELECT value FROM json_each(?))`,
      ),
    };
  }

  /** A job's outputs in the order they were first recorded. */
  outputs(jobId: number): OutputRow[] {
    return inRecordOrder(this.q.outputs.all(jobId)).map((r) => OutputRow.parse(r));
  }

  /** Outputs of many jobs at once, by job id. */
  outputsOf(ids: readonly number[]): Map<number, OutputRow[]> {
    const out = new Map<number, OutputRow[]>();
    if (ids.length === 0) return out;
    for (const r of inRecordOrder(this.q.outputsOf.all(JSON.stringify(ids)))) {
      const o = OutputRow.parse(r);
      const list = out.get(o.job_id);
      if (list) list.push(o);
      else out.set(o.job_id, [o]);
    }
    return out;
  }

  /** Which of these paths are recorded as some job's output file (its results, finished or being written). */
  recordedOutputs(paths: readonly string[]): Set<string> {
    if (paths.length === 0) return new Set();
    const rows = this.q.recorded.all(JSON.stringify(paths)) as { path: string }[];
    return new Set(rows.map((r) => r.path));
  }

  putOutput(row: OutputRow): void {
    this.putOutputs([row]);
  }

  /** Several output records in one commit. */
  putOutputs(rows: readonly OutputRow[]): void {
    if (rows.length) this.t.write(() => this.putEach(rows));
  }

  private putEach(rows: readonly OutputRow[]): void {
    for (const r of rows) {
      this.q.put.run(r);
      this.t.changes.jobTouched(r.job_id);
    }
  }

  clearPendingOutputs(jobId: number): void {
    this.t.write(() => {
      if (this.q.clearPending.run(jobId).changes) this.t.changes.jobTouched(jobId);
    });
  }
}
