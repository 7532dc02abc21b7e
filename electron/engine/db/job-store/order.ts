import type { MoveResult, MoveTarget } from '../../../../shared/contract/queue';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';

/**
 * A job that may still move in the queue's order: it has not begun to send its file (no lease, nothing
 * created at the service) and is not finished. Queued or paused, or failed before anything was sent.
 */
const MOVABLE = `step = 'submit' AND lease_token IS NULL AND uploaded = 0 AND remote_id IS NULL
  AND create_pending = 0 AND state IN ('queued', 'paused', 'failed')`;

/**
 * The queue's order (`jobs.queue_order`, migration 17): the order the worker starts uploads in. A new job
 * goes last (a trigger, or the add's insert, small files first: `enqueueBatch`); a user moves jobs to the top, the bottom, or before another job. Each move is
 * one IMMEDIATE transaction, so a worker claiming at the same moment sees the order before or after it. The list's
 * order changed, and the next upload may be another one: the feed says so (every job, due sooner).
 */
export class JobOrder {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      order: db.prepare(`SELECT id, queue_order AS o, (${MOVABLE}) AS movable FROM jobs WHERE id = ?`),
      first: db.prepare(`SELECT coalesce(min(queue_order), 0) AS o FROM jobs`).pluck(),
      last: db.prepare(`SELECT coalesce(max(queue_order), 0) AS o FROM jobs`).pluck(),
      set: db.prepare(`UPDATE jobs SET queue_order = ? WHERE id = ?`),
      makeRoom: db.prepare(
        `UPDATE jobs SET queue_order = queue_order + @n
          WHERE queue_order >= @at AND id NOT IN (SELECT value FROM json_each(@moving))`,
      ),
    };
  }

  /** Moves the movable ones of `ids` (keeping their order among themselves) to `to`. */
  move(ids: readonly number[], to: MoveTarget): MoveResult {
    return this.t.write(() => {
      const found = [...new Set(ids)].map((id) => ({ id, row: this.q.order.get(id) as Order | undefined }));
      const missing = found.filter((f) => !f.row).map((f) => f.id);
      const rows = found.flatMap((f) => (f.row ? [f.row] : []));
      const moving = rows.filter((r) => r.movable === 1).sort((a, b) => a.o - b.o || a.id - b.id);
      const stayed = rows.filter((r) => r.movable !== 1).map((r) => r.id);
      if (typeof to === 'object' && !this.q.order.get(to.before))
        return { moved: [], stayed, missing: [...missing, to.before] };
      const start = this.startOf(moving, to);
      moving.forEach((r, i) => this.q.set.run(start + i, r.id));
      if (moving.length) this.reordered();
      return { moved: moving.map((r) => r.id), stayed, missing };
    });
  }

  private reordered(): void {
    this.t.changes.someJobs();
    this.t.changes.dueSooner();
  }

  /** Where the first moved job goes; makes room before `before` when moving there. */
  private startOf(moving: readonly Order[], to: MoveTarget): number {
    if (to === 'top') return (this.q.first.get() as number) - moving.length;
    if (to === 'bottom') return (this.q.last.get() as number) + 1;
    const target = this.q.order.get(to.before) as Order;
    this.q.makeRoom.run({ n: moving.length, at: target.o, moving: JSON.stringify(moving.map((r) => r.id)) });
    return target.o;
  }
}

interface Order {
  id: number;
  o: number;
  movable: number;
}
