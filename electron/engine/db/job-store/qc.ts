import type { Qc } from '../../../../shared/contract/deliver';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { deliverOf, type MadeSrt } from './deliver-values';
import type { Packages } from './packages';
import { parseJobRow } from './row-cells';
import type { JobRow } from './rows';
import { OutputRow } from './rows';

/** The most `due` returns. */
const DUE_AT_MOST = 16;

/**
 * Each finished dub's QC (`jobs.qc`) and the SubRip file made from its subtitles: what is still to do,
 * and both recorded in one commit, which the change feed tells (the job's row changed).
 */
export class JobQc {
  private readonly q;
  private readonly t: Transactions;

  constructor(
    db: Db,
    private readonly packages: Packages,
  ) {
    this.t = transactionsOf(db);
    this.q = {
      // By its partial index, named: SQLite's planner takes jobs_state and reads every completed job. The
      // LIMIT is a constant: a bound one has SQLite prepare the statement again at every run (see due.ts).
      due: db
        .prepare(
          `SELECT id FROM jobs INDEXED BY jobs_deliver_due
            WHERE state = 'completed' AND deliver IS NOT NULL AND qc IS NULL ORDER BY id LIMIT ${DUE_AT_MOST}`,
        )
        .pluck(),
      row: db.prepare(`SELECT * FROM jobs WHERE id = ?`),
      outputs: db.prepare(`SELECT * FROM outputs WHERE job_id = ? AND done = 1 ORDER BY rowid`),
      putOutput: db.prepare(
        `INSERT INTO outputs (job_id, type, path, bytes, done, content_hash) VALUES (?, ?, ?, ?, 1, ?)
          ON CONFLICT (job_id, type) DO UPDATE SET path = excluded.path, bytes = excluded.bytes, done = 1,
            content_hash = excluded.content_hash`,
      ),
      dropOutput: db.prepare(`DELETE FROM outputs WHERE job_id = ? AND type = ?`),
      // The dubbed sound the video was made from has been measured: the staging sweep may take it.
      setQc: db.prepare(`UPDATE jobs SET qc = ?, dubbed_audio = NULL WHERE id = ? AND state = 'completed'`),
      // Only over the check it was judged from: one recorded meanwhile (a redo) is not overwritten.
      judgedAgain: db.prepare(
        `UPDATE jobs SET qc = ?, deliver = ? WHERE id = ? AND state = 'completed' AND qc = ?`,
      ),
    };
  }

  /**
   * Completed jobs whose QC (and SubRip file) is still to do, oldest first, by id: the runner asks at every
   * turn, and reads the whole row only of one it starts (`row`).
   */
  due(limit: number): number[] {
    return (this.q.due.all() as number[]).slice(0, limit);
  }

  /** A job's row, for its QC. */
  row(id: number): JobRow | null {
    const row: unknown = this.q.row.get(id);
    return row === undefined ? null : parseJobRow(row);
  }

  /** A job's finished outputs, in the order they were recorded. */
  doneOutputs(jobId: number): OutputRow[] {
    return this.q.outputs.all(jobId).map((r) => OutputRow.parse(r));
  }

  /**
   * A dub's QC, with the SubRip file made from its subtitles (and its WebVTT record gone when SubRip alone
   * was asked for), in one commit; and its source's package wanted (again) when the batch asked for one.
   * The audio path's dubbed sound, kept in staging for QC, is no longer the job's (the caller removes it).
   * False when the job is no longer completed (cleared, moved on): nothing is written then.
   */
  record(row: JobRow, qc: Qc, srt: MadeSrt | null, droppedVtt: boolean, now = Date.now()): boolean {
    return this.t.tx(() => {
      if (this.q.setQc.run(JSON.stringify(qc), row.id).changes === 0) return false;
      if (srt) this.q.putOutput.run(row.id, 'translated_subtitle_srt', srt.path, srt.bytes, srt.sha256);
      if (droppedVtt) this.q.dropOutput.run(row.id, 'translated_subtitle');
      this.t.changes.job(row.id);
      const choice = deliverOf(row);
      if (choice && choice.package !== 'none')
        this.packages.want(row.source, row.out_dir, choice, row.naming, false, now);
      return true;
    });
  }

  /**
   * A dub's check judged again (another loudness target), with that target kept in its delivery choices,
   * in one commit. False when its check changed since `row` was read, or it is no longer completed.
   */
  judgedAgain(row: JobRow, qc: Qc, deliver: string | null): boolean {
    return this.t.tx(() => {
      if (this.q.judgedAgain.run(JSON.stringify(qc), deliver, row.id, row.qc).changes === 0) return false;
      this.t.changes.job(row.id);
      return true;
    });
  }
}
