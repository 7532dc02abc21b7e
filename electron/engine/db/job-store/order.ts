import type { MoveResult, MoveTarget } from '../../../../shared/contract/queue';
import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';
import { SMALL_FIRST_WINDOW } from './due';

/**
 * A job that may still move in the queue's order: it has not begun to send its file (no lease, nothing
 * created at the service) and is not finished. Queued or paused, or failed before anything was sent.
 */
const MOVABLE = `step = 'submit' AND lease_token IS NULL AND uploaded = 0 AND remote_id IS NULL
  AND create_pending = 0 AND state IN ('queued', 'paused', 'failed')`;

/**
 * The queue's order (`jobs.queue_order`, migration 17): the order the worker starts uploads in. A new job
 * goes last (a trigger); a user moves jobs to the top, the bottom, or before another job. Each move is
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
      // The batch's jobs in the order given (one statement for the batch, not one per job).
      sized: db.prepare(
        `SELECT j.id, j.queue_order AS o, j.source_bytes AS bytes
          FROM json_each(?) e JOIN jobs j ON j.id = e.value ORDER BY e.key`,
      ),
      // [id, place] pairs, set in one statement.
      place: db.prepare(
        `UPDATE jobs SET queue_order = m.o
          FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS o FROM json_each(?)) m
          WHERE jobs.id = m.id`,
      ),
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

  /**
   * A batch just queued takes its places in the order smallest source first, in runs of SMALL_FIRST_WINDOW
   * jobs (a file's languages together, equal sizes as they came): the first result comes back early, and a
   * large file waits for a bounded number of smaller ones. Its jobs swap the places they hold; ids stay.
   */
  smallFirst(ids: readonly number[]): void {
    if (ids.length < 2) return;
    this.t.write(() => {
      const rows = this.q.sized.all(JSON.stringify(ids)) as Sized[];
      const moved: [number, number][] = [];
      for (let at = 0; at < rows.length; at += SMALL_FIRST_WINDOW) {
        const run = rows.slice(at, at + SMALL_FIRST_WINDOW);
        const places = run.map((r) => r.o).sort((a, b) => a - b);
        const sorted = [...run].sort((a, b) => (a.bytes ?? Infinity) - (b.bytes ?? Infinity) || a.o - b.o);
        sorted.forEach((r, i) => {
          const place = places[i];
          if (place !== undefined && place !== r.o) moved.push([r.id, place]);
        });
      }
      if (moved.length) this.q.place.run(JSON.stringify(moved));
      this.reordered();
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

interface Sized {
  id: number;
  o: number;
  bytes: number | null;
}

interface Order {
  id: number;
  o: number;
  movable: number;
}
