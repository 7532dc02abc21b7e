import type { JobStore } from '../db/jobs';
import { shiftWaits } from '../jobs/life';

/** A step back smaller than this is the loop's own lateness between two looks, not the clock moved. */
const STEP_MS = 2_000;

/**
 * Notices the wall clock stepped back (NTP correcting a clock that ran fast while the machine slept, or a
 * user setting it): the queue's waits are wall-clock times (a job's `next_run_at`, the next poll), so each
 * would last as much longer as the step, an hour of nothing after an hour's step. The monotonic clock says
 * how much time really passed; the waits are moved back by the step and keep their length. A step forward
 * needs nothing: the waits end at once, as after sleep.
 */
export class ClockSteps {
  private wall = Date.now();
  private monotonic = performance.now();

  constructor(private readonly store: JobStore) {}

  /** Whether the wall clock stepped back since the last look; if so, the jobs' waits were moved with it. */
  steppedBack(now = Date.now()): boolean {
    const monotonic = performance.now();
    const back = this.wall + (monotonic - this.monotonic) - now;
    this.wall = now;
    this.monotonic = monotonic;
    if (back <= STEP_MS) return false;
    shiftWaits(this.store, Math.round(back), now);
    return true;
  }
}
