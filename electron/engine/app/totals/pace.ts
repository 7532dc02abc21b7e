import { isTerminal } from '../../../../shared/contract/jobs';
import type { JobRow } from '../../db/jobs';

/**
 * How long a job takes from its upload to its results, as a moving average of the jobs that completed in
 * this session: the time left is the jobs left, a few at a time, at that pace.
 */
export class JobPace {
  private readonly starts = new Map<number, number>();
  private secondsAvg: number | null = null;

  seen(row: JobRow): void {
    if (row.state === 'uploading' && !this.starts.has(row.id)) this.starts.set(row.id, Date.now());
    if (row.state === 'completed') {
      const started = this.starts.get(row.id);
      if (started !== undefined) {
        const took = (Date.now() - started) / 1000;
        this.secondsAvg = this.secondsAvg === null ? took : this.secondsAvg * 0.8 + took * 0.2;
      }
    }
    if (isTerminal(row.state)) this.starts.delete(row.id);
  }

  /** Seconds until `left` jobs are done, `concurrency` at a time; `fallback` before any job completed. */
  etaSeconds(left: number, concurrency: number, fallback: number | null): number | null {
    if (left === 0) return 0;
    if (this.secondsAvg !== null) return Math.round((left / concurrency) * this.secondsAvg);
    return fallback;
  }
}
