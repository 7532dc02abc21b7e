import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DubdeskError } from '../../../shared/contract/errors';
import type { Instant, LockRow, LockStore } from '../db/lock-store';
import { IDLE_HEARTBEAT_MS, IDLE_STALE_MS, machineClockMs, pidAlive } from './idle';

/** A holder that has not said it is alive for this long is gone (hung, or on a machine we cannot ask). */
const STALE_MS = 30_000;
const HEARTBEAT_MS = 5_000;

const nowOnBothClocks = (): Instant => ({ wall: Date.now(), mono: machineClockMs() });

/**
 * On this machine the holder's pid says whether it lives (killed: no need to wait for the heartbeat), so
 * an idle holder may renew seldom; the long limit only guards against its pid being reused after it died.
 * That age is read on the machine's monotonic clock: read on the wall clock, a step of it ten minutes
 * forward made a holder that runs look gone, and another process took its queue over. A heartbeat ahead
 * of the monotonic clock is another boot's. Another machine's is read on the wall clocks.
 */
function stale(row: LockRow, now: Instant): boolean {
  if (row.host !== hostname()) return now.wall - row.heartbeat_at > STALE_MS;
  if (!pidAlive(row.pid)) return true;
  if (row.heartbeat_mono === null) return now.wall - row.heartbeat_at > IDLE_STALE_MS;
  const age = now.mono - row.heartbeat_mono;
  return age < 0 || age > IDLE_STALE_MS;
}

/**
 * One worker per queue (desktop app, CLI or serve): a row in the queue's own database, taken and taken over
 * inside an IMMEDIATE transaction, so two processes starting at the same instant can never both hold it.
 * The holder renews it; a holder that died (its pid is gone) or went silent is replaced.
 */
export class QueueLock {
  /** When it last renewed, on the clock its age is read on (a wall-clock step back held it silent). */
  private renewedAt = machineClockMs();

  private constructor(
    private readonly store: LockStore,
    readonly owner: string,
  ) {}

  /** `clock`: read inside the lock's transaction, after any other process's write to it. */
  static acquire(store: LockStore, home: string, clock = nowOnBothClocks): QueueLock {
    const owner = randomUUID();
    store.take({ owner, pid: process.pid, host: hostname() }, clock, (holder, now) => {
      if (holder && !stale(holder, now))
        throw new DubdeskError(
          'busy',
          `another Dubdesk (pid ${holder.pid} on ${holder.host}) is already working this queue in ${home}`,
          { remedy: 'Let it finish, or stop it first.', holder: { pid: holder.pid, host: holder.host } },
        );
    });
    return new QueueLock(store, owner);
  }

  /** False when someone took the lock over (we were silent too long): the worker must stop at once. */
  heartbeat(now = nowOnBothClocks()): boolean {
    this.renewedAt = now.mono;
    return this.store.renew(this.owner, now);
  }

  /** The heartbeat, when the holder has been silent long enough: seldom while `idle` (see idle.ts). */
  renewIfDue(idle: boolean): boolean {
    const silent = machineClockMs() - this.renewedAt;
    return silent < (idle ? IDLE_HEARTBEAT_MS : HEARTBEAT_MS) || this.heartbeat();
  }

  release(): void {
    this.store.release(this.owner);
  }

  /** Whether some live process works this queue now (for the queue's status). */
  static held(store: LockStore): boolean {
    const holder = store.holder();
    // The clock read after the row: a heartbeat written meanwhile would read as from another boot.
    return holder !== null && !stale(holder, nowOnBothClocks());
  }
}
