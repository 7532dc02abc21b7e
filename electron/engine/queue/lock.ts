import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import { DubdeskError } from '../../../shared/contract/errors';
import type { Db } from '../db/open';
import { IDLE_STALE_MS, pidAlive } from './idle';

/** A holder that has not said it is alive for this long is gone (hung, or on a machine we cannot ask). */
const STALE_MS = 30_000;
export const HEARTBEAT_MS = 5_000;

const LockRow = z.object({
  owner: z.string(),
  pid: z.number().int(),
  host: z.string(),
  heartbeat_at: z.number().int(),
  started_at: z.number().int(),
});
type LockRow = z.infer<typeof LockRow>;

/**
 * On this machine the holder's pid says whether it lives (killed: no need to wait for the heartbeat), so
 * an idle holder may renew seldom; the long limit only guards against its pid being reused after it died.
 */
function stale(row: LockRow, now: number): boolean {
  if (row.host === hostname()) return !pidAlive(row.pid) || now - row.heartbeat_at > IDLE_STALE_MS;
  return now - row.heartbeat_at > STALE_MS;
}

/**
 * One worker per queue (desktop app, CLI or serve): a row in the queue's own database, taken and taken over
 * inside an IMMEDIATE transaction, so two processes starting at the same instant can never both hold it.
 * The holder renews it; a holder that died (its pid is gone) or went silent is replaced.
 */
export class QueueLock {
  private constructor(
    private readonly db: Db,
    readonly owner: string,
  ) {}

  static acquire(db: Db, home: string, now = Date.now()): QueueLock {
    const owner = randomUUID();
    db.transaction(() => {
      const found = db
        .prepare(`SELECT owner, pid, host, heartbeat_at, started_at FROM runner_lock WHERE id = 1`)
        .get();
      const row = found ? LockRow.safeParse(found) : null;
      if (row?.success && !stale(row.data, now)) {
        throw new DubdeskError(
          'busy',
          `another Dubdesk (pid ${row.data.pid} on ${row.data.host}) is already working this queue in ${home}`,
          {
            remedy: 'Let it finish, or stop it first.',
          },
        );
      }
      db.prepare(
        `INSERT INTO runner_lock (id, owner, pid, host, heartbeat_at, started_at) VALUES (1, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid, host = excluded.host,
           heartbeat_at = excluded.heartbeat_at, started_at = excluded.started_at`,
      ).run(owner, process.pid, hostname(), now, now);
    }).immediate();
    return new QueueLock(db, owner);
  }

  /** False when someone took the lock over (we were silent too long): the worker must stop at once. */
  heartbeat(now = Date.now()): boolean {
    return (
      this.db
        .prepare(`UPDATE runner_lock SET heartbeat_at = ? WHERE id = 1 AND owner = ?`)
        .run(now, this.owner).changes === 1
    );
  }

  release(): void {
    this.db.prepare(`DELETE FROM runner_lock WHERE id = 1 AND owner = ?`).run(this.owner);
  }

  /** Whether some live process works this queue now (for the queue's status). */
  static held(db: Db, now = Date.now()): boolean {
    const found = db
      .prepare(`SELECT owner, pid, host, heartbeat_at, started_at FROM runner_lock WHERE id = 1`)
      .get();
    const row = found ? LockRow.safeParse(found) : null;
    return Boolean(row?.success && !stale(row.data, now));
  }
}
