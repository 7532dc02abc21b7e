import { z } from 'zod';
import type { Db } from '../types';

const PathRow = z.object({ path: z.string() });

/** The audio path's staged files (the sound a job sends, the dubbed sound it rebuilds from) and who needs them. */
export class StagedAudio {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      neededByAnother: db.prepare(
        `SELECT 1 FROM jobs WHERE staged_audio = ? AND id <> ? AND step = 'submit'
            AND state NOT IN ('completed', 'canceled') LIMIT 1`,
      ),
      // Each part walks the partial index of its jobs (jobs_submit_order, jobs_due, jobs_deliver_due): by
      // state, or with no index, it read every finished job of the history at each start.
      inUse: db.prepare(
        `SELECT staged_audio AS path FROM jobs WHERE step = 'submit' AND staged_audio IS NOT NULL
            AND state NOT IN ('completed', 'canceled')
         UNION SELECT dubbed_audio FROM jobs WHERE step IN ('submit', 'fetch') AND step = 'fetch'
            AND dubbed_audio IS NOT NULL
         UNION SELECT dubbed_audio FROM jobs INDEXED BY jobs_deliver_due
            WHERE state = 'completed' AND deliver IS NOT NULL AND qc IS NULL AND dubbed_audio IS NOT NULL`,
      ),
    };
  }

  /**
   * Whether another job still needs this extracted sound: one of the same source that has not sent it yet
   * (its dub not created), and is not over. The languages of one file share one extraction.
   */
  neededByAnother(path: string, exceptId: number): boolean {
    return this.q.neededByAnother.get(path, exceptId) !== undefined;
  }

  /**
   * Every staged file a job may still use: sounds to send, dubbed sounds to rebuild from, and those of
   * finished dubs whose QC is to come (it reads the dub's own length from them, then lets them go).
   */
  inUse(): Set<string> {
    return new Set(this.q.inUse.all().map((row) => PathRow.parse(row).path));
  }
}
