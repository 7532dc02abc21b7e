import type { JobRow } from '../db/jobs';
import type { JobError } from '../jobs/errors';
import type { LifeEvent } from '../jobs/life';
import { backoffDelay, type BackoffPolicy } from './backoff';

/**
 * What a failed step becomes in the job's life: a wait with its backoff, a halt of the whole queue, or a
 * failure once the service has misbehaved too often. Side effects (the queue's pause, connectivity) stay
 * with the runner; this only decides the event.
 */
export class FailurePolicy {
  /**
   * Waits in a row per job (network, disk, a transfer resuming), for their backoff. Kept apart from the
   * job's `attempts`, which count only the service's failures; a new run starts the backoff again.
   */
  private readonly waits = new Map<number, number>();

  /** The runner's environment, read at each failure: its backoff and `maxServiceAttempts`. */
  constructor(private readonly limits: { backoff: BackoffPolicy; maxServiceAttempts: number }) {}

  /** The step went through: the next wait starts its backoff from the beginning. */
  succeeded(id: number): void {
    this.waits.delete(id);
  }

  /** The event for a step of `row` that failed with `err` (not an interruption; the runner handles those). */
  next(row: JobRow, err: JobError, pauseAsked: boolean): LifeEvent {
    if (err.retry !== 'wait') this.waits.delete(row.id);
    // The user paused the job during the step: it stops here, not in a wait (nothing claims a job whose pause
    // is pending, so it would wait for ever). A definitive failure still fails it.
    if (pauseAsked && err.retry !== 'never') return { type: 'paused-at-step' };
    const attempts = row.attempts + 1;
    switch (err.retry) {
      case 'halt-auth':
        return { type: 'halt', waiting: { code: 'auth', message: 'API key rejected' } };
      case 'halt-credits':
        return {
          type: 'halt',
          waiting: { code: 'credits', message: 'out of credits: add credits and the queue goes on' },
        };
      case 'wait': {
        const waits = (this.waits.get(row.id) ?? 0) + 1;
        this.waits.set(row.id, waits);
        return {
          type: 'wait',
          attempts: err.madeProgress ? 0 : row.attempts,
          runAt: Date.now() + backoffDelay(waits, this.limits.backoff),
          waiting: {
            code: err.waitingCode,
            message: err.waitingCode === 'offline' ? 'waiting for the network' : err.error.message,
          },
        };
      }
      case 'bounded':
        if (attempts >= this.limits.maxServiceAttempts)
          return {
            type: 'fail',
            error: { ...err.error, message: `gave up after ${attempts} attempts: ${err.error.message}` },
          };
        return {
          type: 'wait',
          attempts,
          runAt: Date.now() + backoffDelay(attempts, this.limits.backoff),
          waiting: { code: 'retry', message: `retrying after: ${err.error.message}` },
        };
      default:
        return { type: 'fail', error: err.error };
    }
  }
}
