import { z } from 'zod';
import { RATES_KEY } from './published-rates';
import { transactionsOf, type Transactions } from './transactions';
import type { Db } from './types';

export const LockRow = z.object({
  owner: z.string(),
  pid: z.number().int(),
  host: z.string(),
  heartbeat_at: z.number().int(),
  /** The machine's monotonic clock at that heartbeat (null: written by an older version). */
  heartbeat_mono: z.number().int().nullable(),
  started_at: z.number().int(),
});
export type LockRow = z.infer<typeof LockRow>;

/** A moment on the wall clock and on the machine's monotonic clock (runner/idle's machineClockMs). */
export interface Instant {
  wall: number;
  mono: number;
}

/** The queue's lock row (`runner_lock`): who works the queue, and since when it last said it is alive. */
export class LockStore {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      read: db.prepare(
        `SELECT owner, pid, host, heartbeat_at, heartbeat_mono, started_at FROM runner_lock WHERE id = 1`,
      ),
      take: db.prepare(
        `INSERT INTO runner_lock (id, owner, pid, host, heartbeat_at, heartbeat_mono, started_at)
           VALUES (1, @owner, @pid, @host, @now, @mono, @now)
         ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid, host = excluded.host,
           heartbeat_at = excluded.heartbeat_at, heartbeat_mono = excluded.heartbeat_mono,
           started_at = excluded.started_at`,
      ),
      renew: db.prepare(
        `UPDATE runner_lock SET heartbeat_at = ?, heartbeat_mono = ? WHERE id = 1 AND owner = ?`,
      ),
      drop: db.prepare(`DELETE FROM runner_lock WHERE id = 1 AND owner = ?`),
      dropRates: db.prepare(`DELETE FROM settings WHERE key = ?`),
    };
  }

  /** The holder as recorded (null: none, or a row this version cannot read). */
  holder(): LockRow | null {
    const found = this.q.read.get();
    const row = found ? LockRow.safeParse(found) : null;
    return row?.success ? row.data : null;
  }

  /**
   * Takes the lock for `owner` in one IMMEDIATE transaction, unless `refuse` (given the holder as it is in
   * that transaction, and the clock read then) throws: two processes starting at the same instant can never
   * both hold it.
   */
  take(
    owner: { owner: string; pid: number; host: string },
    clock: () => Instant,
    refuse: (holder: LockRow | null, now: Instant) => void,
  ): void {
    this.t.tx(() => {
      const now = clock();
      refuse(this.holder(), now);
      this.q.take.run({ ...owner, now: now.wall, mono: now.mono });
      this.t.changes.lockChanged();
      this.dropRates();
    });
  }

  /** The holder says it is alive; false when someone else holds the lock now. */
  renew(owner: string, now: Instant): boolean {
    return this.q.renew.run(now.wall, now.mono, owner).changes === 1;
  }

  release(owner: string): void {
    this.t.write(() => {
      if (!this.q.drop.run(owner).changes) return;
      this.t.changes.lockChanged();
      this.dropRates();
    });
  }

  /** The rates a holder published go with its lock (`db/published-rates.ts`). */
  private dropRates(): void {
    if (this.q.dropRates.run(RATES_KEY).changes) this.t.changes.ratesChanged();
  }
}
