import { isTerminal } from '../../../../shared/contract/jobs';
import type { JobRow } from '../../db/jobs';

/**
 * How long a job takes from its upload to its results, as a moving average of the jobs that completed in
 * this session: the time left is the jobs left, a few at a time, at that pace.
 */
export class JobPace {
  private readonly starts = new Map<number, number>();
  private secondsAvg: number | null = null;

  /** Seconds a job has taken here, on average (null: none completed yet in this session). */
  get averageSeconds(): number | null {
    return this.secondsAvg === null ? null : Math.round(this.secondsAvg * 10) / 10;
  }

  /** True when the average moved. */
  seen(row: JobRow): boolean {
    const before = this.secondsAvg;
    if (row.state === 'uploading' && !this.starts.has(row.id)) this.starts.set(row.id, Date.now());
    if (row.state === 'completed') {
      const started = this.starts.get(row.id);
      if (started !== undefined) {
        const took = (Date.now() - started) / 1000;
        this.secondsAvg = this.secondsAvg === null ? took : this.secondsAvg * 0.8 + took * 0.2;
      }
    }
    if (isTerminal(row.state)) this.starts.delete(row.id);
    return this.secondsAvg !== before;
  }

  /**
   * Seconds until `left` jobs are done, `concurrency` at a time, at this pace or else at `otherPace` (the
   * worker's in another process); `fallback` before any job completed.
   */
  etaSeconds(
    left: number,
    concurrency: number,
    fallback: number | null,
    otherPace: number | null = null,
  ): number | null {
    if (left === 0) return 0;
    const pace = this.secondsAvg ?? otherPace;
    if (pace !== null) return Math.round((left / concurrency) * pace);
    return fallback;
  }
}
