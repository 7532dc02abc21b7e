import type { ChangeFeed } from './changes';
import { backUp } from './backup';
import { JobStore } from './jobs';
import { LockStore } from './lock-store';
import { openDatabase } from './open';
import { RatesStore } from './published-rates';

export { assertNotLost } from './open';
import { transactionsOf, type Transactions } from './transactions';
import type { Db } from './types';
import { WatchStore } from './watch';

/**
 * The queue's database as the engine sees it: its stores (jobs, watched folders, the worker's lock), the
 * feed of every change committed to it, by this process or another, and its backup. The connection itself
 * stays in here: nothing outside `db/` prepares a statement or opens a transaction.
 */
export class QueueDatabase {
  readonly jobs: JobStore;
  readonly watch: WatchStore;
  readonly lock: LockStore;
  /** The rates of the process that works the queue, for the others. */
  readonly rates: RatesStore;
  private readonly db: Db;
  private readonly transactions: Transactions;

  /** Opens (migrating it) or creates the database at `file`. */
  constructor(readonly file: string) {
    this.db = openDatabase(file);
    this.transactions = transactionsOf(this.db);
    this.jobs = new JobStore(this.db);
    this.watch = new WatchStore(this.db);
    this.lock = new LockStore(this.db);
    this.rates = new RatesStore(this.db);
  }

  /** Every change committed, told once it committed; other processes' commits too (`listenForOthers`). */
  get changes(): ChangeFeed {
    return this.transactions.feed;
  }

  /**
   * Listens for other processes' commits on the data folder (the file system says when; nothing polls).
   * False where the folder cannot be watched: `lookForOthers` is then the only way they are heard.
   */
  listenForOthers(): boolean {
    return this.transactions.listenForOthers();
  }

  /** Whether another process committed since the last look: told on the feed if so. */
  lookForOthers(): void {
    this.transactions.lookForOthers();
  }

  /** An online copy into `backups/` (see `backUp`); null when nothing changed since the newest. */
  backUp(): Promise<string | null> {
    return backUp(this.db, this.file);
  }

  close(): void {
    this.transactions.close();
    this.db.close();
  }
}
