import type { Transaction } from 'better-sqlite3';
import type { Db } from '../open';

type AnyTx = Transaction<(...args: unknown[]) => unknown>;

/** The store's transactions: each function's wrapper made once, write ones IMMEDIATE, read ones DEFERRED. */
export class Transactions {
  private readonly writes = new WeakMap<object, AnyTx>();
  private readonly reads = new WeakMap<object, AnyTx>();

  constructor(private readonly db: Db) {}

  /**
   * `fn` in one transaction (nested ones become savepoints), its wrapper made once per function rather
   * than on every call: the hot paths (a job's every change of state) pass the same function each time.
   * IMMEDIATE, as every write transaction here: a deferred one that read first and then writes after another
   * process (a second `dubdesk`, an `add` from a shell) wrote fails at once with SQLITE_BUSY instead of
   * waiting out the busy timeout.
   */
  tx<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    return this.wrapped(this.writes, fn).immediate(...args) as R;
  }

  /**
   * Reads in one transaction (DEFERRED: it never writes). Each statement on its own is a transaction too,
   * and in WAL mode every one takes and drops a read lock on the shared index with `fcntl` (more after a
   * write, to move a read mark): the runner's look around the queue is one lock, not five.
   */
  read<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    if (this.db.inTransaction) return fn(...args);
    return this.wrapped(this.reads, fn).deferred(...args) as R;
  }

  private wrapped(cache: WeakMap<object, AnyTx>, fn: object): AnyTx {
    let t = cache.get(fn);
    if (!t) {
      t = this.db.transaction(fn as (...a: unknown[]) => unknown);
      cache.set(fn, t);
    }
    return t;
  }
}
