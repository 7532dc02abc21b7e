import type { JobError } from '../jobs/errors';
import { backoffDelay, type BackoffPolicy } from './backoff';

/**
 * The polls of the service's lists, failing in a row. Every failure backs the next poll off; those that are
 * the service's (a 5xx, an answer too big, nested past reason or out of shape), not the network's, count
 * toward its failure budget (`maxServiceAttempts`, as a step's do): spent, a run that should finish stops
 * (`dub`, `run --until-done`: exit 5, as for an unreachable service) instead of waiting for ever.
 */
export class PollBudget {
  private inARow = 0;
  private serviceFailures = 0;

  constructor(private readonly limits: { backoff: BackoffPolicy; maxServiceAttempts: number }) {}

  succeeded(): void {
    this.inARow = 0;
    this.serviceFailures = 0;
  }

  /**
   * A poll failed with `err`: when to poll again, and, for a failure of the service's, what the jobs it
   * follows say meanwhile.
   */
  failed(err: JobError): { retryAt: number; problem: string | null } {
    const retryAt = Date.now() + backoffDelay(++this.inARow, this.limits.backoff);
    if (err.error.code === 'offline' || err.retry === 'halt-auth') return { retryAt, problem: null };
    this.serviceFailures++;
    return { retryAt, problem: `the service's list of dubs keeps failing: ${err.error.message}` };
  }

  /** The service failed every poll the budget allows, in a row. */
  get spent(): boolean {
    return this.serviceFailures >= this.limits.maxServiceAttempts;
  }
}
