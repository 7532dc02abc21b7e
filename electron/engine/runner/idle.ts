/**
 * What an idle engine does, in one place: how long its loops sleep when nothing is due, how often a holder
 * of the queue (or of the folder watch) says it is alive while idle, and a count of the loops' turns (the
 * bench's wake-up figure and the idle tests read it).
 */

/** The runner's longest sleep when no job is running, tracked or due (an add or a setting wakes it). */
export const IDLE_LOOK_MS = 30_000;
/**
 * While idle, a holder renews its heartbeat this seldom: on this machine its pid tells that it is alive,
 * and the heartbeat only guards against a pid reused after the holder died (a reboot).
 */
export const IDLE_HEARTBEAT_MS = 4 * 60_000;
/** A holder on this machine whose pid still runs is taken to be gone once silent this long. */
export const IDLE_STALE_MS = 10 * 60_000;

/** Turns of the engine's loops since the process started: each is one wake-up of a timer or an event. */
export const loopTurns = { runner: 0, watcher: 0 };

/** Whether `pid` runs on this machine (EPERM: it runs, as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The machine's monotonic clock in ms: the same in every process of this boot, and moved by no step of the
 * wall clock (NTP after sleep, a user setting the time). A reading from another boot may be larger than
 * this one's.
 */
export function machineClockMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}
