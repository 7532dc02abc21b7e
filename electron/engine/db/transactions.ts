import type { Transaction } from 'better-sqlite3';
import { ChangeMarks } from './change-marks';
import { ChangeFeed, foreignChanges, PendingChanges, type Area } from './changes';
import { ForeignCommits } from './foreign-commits';
import type { Db } from './types';

type Run = Transaction<(work: () => unknown) => unknown>;

/**
 * The one way to write the queue database: every write runs in a transaction of this connection's, which
 * records what it changed (`changes`), moves the change marks of those areas in the same commit, and once
 * it committed, tells the feed. One instance per connection (`transactionsOf`), shared by every store on it.
 */
export class Transactions {
  readonly feed = new ChangeFeed();
  /** What the transaction under way changed so far (the stores record into it). */
  readonly changes = new PendingChanges();
  private readonly marks: ChangeMarks;
  private readonly foreign: ForeignCommits;
  private readonly outer: Run;
  private readonly nested: Run;
  private readonly reader: Run;
  /** Areas the commit under way changed that another process had changed too since this one looked. */
  private alsoElsewhere: Area[] = [];

  constructor(private readonly db: Db) {
    this.marks = new ChangeMarks(db);
    this.foreign = new ForeignCommits(
      db,
      () => this.marks.moved(),
      (areas) => this.feed.publish(foreignChanges(areas)),
    );
    this.outer = db.transaction((work: () => unknown) => {
      const result = work();
      this.moveMarks();
      return result;
    });
    this.nested = db.transaction((work: () => unknown) => work());
    this.reader = this.outer;
  }

  /**
   * `fn` in one IMMEDIATE transaction (nested ones become savepoints), as every write transaction here: a
   * deferred one that read first and then writes after another process (a second `dubdesk`, an `add` from a
   * shell) wrote fails at once with SQLITE_BUSY instead of waiting out the busy timeout. Its changes are
   * told once the outermost transaction committed.
   */
  tx<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    if (this.db.inTransaction) return this.nested.immediate(() => fn(...args)) as R;
    return this.committed(() => this.outer.immediate(() => fn(...args)) as R);
  }

  /** One store write: in the transaction under way, or in one of its own. */
  write<R>(fn: () => R): R {
    return this.db.inTransaction ? fn() : this.tx(fn);
  }

  /**
   * Reads in one transaction (DEFERRED: it never writes). Each statement on its own is a transaction too,
   * and in WAL mode every one takes and drops a read lock on the shared index with `fcntl` (more after a
   * write, to move a read mark): the runner's look around the queue is one lock, not five.
   */
  read<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    if (this.db.inTransaction) return fn(...args);
    return this.committed(() => this.reader.deferred(() => fn(...args)) as R);
  }

  /** Listens for other processes' commits on the data folder (see `ForeignCommits`). */
  listenForOthers(): boolean {
    return this.foreign.start();
  }

  /** Looks now whether another process committed (the loops call it; free when nothing changed). */
  lookForOthers(): void {
    this.foreign.look();
  }

  close(): void {
    this.foreign.stop();
  }

  private committed<R>(run: () => R): R {
    let result: R;
    try {
      result = run();
    } catch (e) {
      this.changes.discard();
      throw e;
    }
    if (!this.changes.empty) this.publish();
    return result;
  }

  private moveMarks(): void {
    const areas = this.changes.areas();
    this.alsoElsewhere = areas.length ? this.marks.bump(areas) : [];
  }

  private publish(): void {
    const elsewhere = this.alsoElsewhere;
    this.alsoElsewhere = [];
    this.feed.publish(this.changes.take());
    if (elsewhere.length) this.feed.publish(foreignChanges(new Set(elsewhere)));
  }
}

const connections = new WeakMap<Db, Transactions>();

/** The transactions (and the change feed) of a connection: one per connection, whichever store asks. */
export function transactionsOf(db: Db): Transactions {
  let t = connections.get(db);
  if (!t) connections.set(db, (t = new Transactions(db)));
  return t;
}
