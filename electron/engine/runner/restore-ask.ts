import type { JobStore } from '../db/jobs';
import type { Clients } from '../flows/context';
import { askAfterRestore } from '../flows/restored-dubs';
import { classify } from '../jobs/errors';
import { backoffDelay, type BackoffPolicy } from './backoff';

/**
 * After a restore, nothing is created before the service has said which dubs it made meanwhile
 * (see flows/restored-dubs.ts): it is asked once, and again after a backoff if that failed.
 */
export class RestoreAsk {
  private asking: Promise<unknown> | null = null;
  private againAt = 0;
  private failures = 0;

  constructor(
    private readonly backoff: BackoffPolicy,
    /** Told when the question could not reach the service. */
    private readonly offline: (message: string) => void,
    /** Told when an answer (or a failure) came. */
    private readonly answered: () => void,
  ) {}

  /** Whether creates wait for the service's answer; asks (again) when it is time and the run goes on. */
  holds(store: JobStore, clients: () => Clients, signal: AbortSignal, draining: boolean): boolean {
    if (store.restored.pending() === null) return false;
    if (!draining && !this.asking && Date.now() >= this.againAt) this.ask(store, clients(), signal);
    return true;
  }

  /** A question is under way. */
  get busy(): boolean {
    return this.asking !== null;
  }

  /** When the next question may go, or null while one is under way. */
  get nextAt(): number | null {
    return this.asking ? null : this.againAt;
  }

  private ask(store: JobStore, clients: Clients, signal: AbortSignal): void {
    this.asking = askAfterRestore(store, clients, signal)
      .then(() => (this.failures = 0))
      .catch((e: unknown) => {
        const err = classify(e);
        if (err.error.code === 'offline') this.offline(err.error.message);
        this.againAt = Date.now() + backoffDelay(++this.failures, this.backoff);
      })
      .then(() => {
        this.asking = null;
        this.answered();
      });
  }
}
