import type { JobStore } from '../db/jobs';
import { shiftWaits } from '../jobs/life';

/** A step back smaller than this is the loop's own lateness between two looks, not the clock moved. */
const STEP_MS = 2_000;

/**
 * Notices the wall clock stepped back (NTP correcting a clock that ran fast while the machine slept, or a
 * user setting it). Waits kept as wall-clock times (a job's `next_run_at`, the next poll, a watched file's
 * settling) would each last as much longer as the step, an hour of nothing after an hour's step. The
 * monotonic clock says how much time really passed, so the waits can be moved back by the step and keep
 * their length. A step forward needs nothing: the waits end at once, as after sleep.
 */
export class WallClockSteps {
  private wall = Date.now();
  private monotonic = performance.now();

  /** How far the wall clock stepped back since the last look, in ms (0: it did not). */
  back(now = Date.now()): number {
    const monotonic = performance.now();
    const back = this.wall + (monotonic - this.monotonic) - now;
    this.wall = now;
    this.monotonic = monotonic;
    return back > STEP_MS ? Math.round(back) : 0;
  }
}

/** The runner's: a step back moves the queue's waits with it. */
export class ClockSteps {
  private readonly steps = new WallClockSteps();

  constructor(private readonly store: JobStore) {}

  /** Whether the wall clock stepped back since the last look; if so, the jobs' waits were moved with it. */
  steppedBack(now = Date.now()): boolean {
    const back = this.steps.back(now);
    if (back) shiftWaits(this.store, back, now);
    return back > 0;
  }
}
