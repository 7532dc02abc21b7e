import type { QueuePause, RunnerEnv } from './runner-types';

const CREDITS_RECHECK_MS = 60_000;
/** Out of credits for long: the balance is asked at most this seldom. */
const CREDITS_RECHECK_CAP_MS = 15 * 60_000;

/**
 * A run that waits while the queue is out of credits asks the balance again, less and less often, and lifts
 * the pause once credits were added.
 */
export class CreditsRecheck {
  private every = CREDITS_RECHECK_MS;
  /** On the monotonic clock: a wall clock stepped back would hold the next look back as long. */
  private at = performance.now() + CREDITS_RECHECK_MS;

  constructor(private readonly env: Pick<RunnerEnv, 'balance' | 'queuePause' | 'setQueuePause'>) {}

  /** One turn of the run's loop, with the queue's pause as the turn read it. */
  turn(paused: QueuePause | null, untilDone: boolean): void {
    if (paused?.reason !== 'credits') this.every = CREDITS_RECHECK_MS;
    if (paused?.reason !== 'credits' || untilDone || performance.now() < this.at) return;
    this.at = performance.now() + this.every;
    this.every = Math.min(this.every * 2, CREDITS_RECHECK_CAP_MS);
    void this.env
      .balance()
      .then((b) => {
        if (b > 0 && this.env.queuePause()?.reason === 'credits') this.env.setQueuePause(null);
      })
      .catch(() => {});
  }
}
