import type { Db } from '../types';
import { z } from 'zod';
import { OutputRow, type JobRow } from './rows';

/** An earlier job's finished result, with what says whether it is of the same dub. */
export const EarlierResult = z.object({
  job_id: z.number().int(),
  type: z.string(),
  path: z.string(),
  dest_lang: z.string(),
  source_hash: z.string().nullable(),
  audio_track: z.string(),
});
export type EarlierResult = z.infer<typeof EarlierResult>;
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
      sharedBy: db.prepare(`SELECT 1 FROM outputs WHERE path = ? AND job_id <> ? LIMIT 1`),
      claimedBy: db.prepare(
        `SELECT 1 FROM outputs o JOIN jobs j ON j.id = o.job_id
          WHERE o.path = ? AND o.job_id <> ? AND o.done = 0 AND j.state = 'downloading' LIMIT 1`,
      ),
      ofSource: db.prepare(
        `SELECT o.* FROM outputs o JOIN jobs j ON j.id = o.job_id
          WHERE j.source = ? AND j.out_dir = ? AND o.type = ? AND o.job_id <> ? AND o.bytes IS NOT NULL
            AND (j.source_hash IS NULL OR @hash IS NULL OR j.source_hash = @hash)`,
      ),
      earlier: db.prepare(
        `SELECT o.job_id, o.type, o.path, j.dest_lang, j.source_hash, j.audio_track FROM outputs o JOIN jobs j ON j.id = o.job_id
          WHERE j.source = ? AND j.out_dir = ? AND j.source_kind = 'file' AND j.id < ? AND o.done = 1
          ORDER BY o.job_id`,
      ),
      movePath: db.prepare(`UPDATE outputs SET path = ? WHERE path = ? RETURNING job_id`).pluck(),
    };
  }

  /** A job's outputs in the order they were first recorded. */
  of(jobId: number): OutputRow[] {
    return inRecordOrder(this.q.outputs.all(jobId)).map((r) => OutputRow.parse(r));
  }

  /** Outputs of many jobs at once, by job id. */
  ofJobs(ids: readonly number[]): Map<number, OutputRow[]> {
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
  recorded(paths: readonly string[]): Set<string> {
    if (paths.length === 0) return new Set();
    const rows = this.q.recorded.all(JSON.stringify(paths)) as { path: string }[];
    return new Set(rows.map((r) => r.path));
  }

  /** Whether another job records the same file (an output shared by the languages of one source). */
  sharedByAnother(o: Pick<OutputRow, 'path' | 'job_id'>): boolean {
    return this.q.sharedBy.get(o.path, o.job_id) !== undefined;
  }

  /**
   * Whether another job downloading now has claimed `path` for one of its results. Only a claim still
   * being downloaded: a finished result is on the disk (or was deleted, and its name is free again), and a
   * failed or canceled job's claim is nobody's.
   */
  claimedByAnother(path: string, id: number): boolean {
    return this.q.claimedBy.get(path, id) !== undefined;
  }

  /**
   * Outputs of type `type` that another job of the same source saved (or moved into place and was about to
   * record) in the same folder, of the same content. Not filtered for files moved aside: the caller does.
   */
  ofSource(r: Pick<JobRow, 'id' | 'source' | 'out_dir' | 'source_hash'>, type: string): OutputRow[] {
    return this.q.ofSource
      .all(r.source, r.out_dir, type, r.id, { hash: r.source_hash })
      .map((row) => OutputRow.parse(row));
  }

  /** The finished results of this source's earlier jobs in the same folder, each with its job's language. */
  earlierResults(r: Pick<JobRow, 'id' | 'source' | 'out_dir'>): EarlierResult[] {
    return this.q.earlier.all(r.source, r.out_dir, r.id).map((row) => EarlierResult.parse(row));
  }

  /** A result file moved (aside, to another folder): its record follows it. */
  moved(from: string, to: string): void {
    this.t.write(() => {
      for (const id of this.q.movePath.all(to, from) as number[]) this.t.changes.jobTouched(id);
    });
  }

  put(row: OutputRow): void {
    this.putMany([row]);
  }

  /** Several output records in one commit. */
  putMany(rows: readonly OutputRow[]): void {
    if (rows.length) this.t.write(() => this.putEach(rows));
  }

  private putEach(rows: readonly OutputRow[]): void {
    for (const r of rows) {
      this.q.put.run(r);
      this.t.changes.jobTouched(r.job_id);
    }
  }

  clearPending(jobId: number): void {
    this.t.write(() => {
      if (this.q.clearPending.run(jobId).changes) this.t.changes.jobTouched(jobId);
    });
  }
}
