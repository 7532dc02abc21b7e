import { hostname } from 'node:os';
import { z } from 'zod';
import { transactionsOf, type Transactions } from './transactions';
import type { Db } from './types';

/** The settings row that holds the worker's rates; the lock's take and release delete it too. */
export const RATES_KEY = 'queue.rates';

const rate = z.number().finite().nonnegative().nullable();

/** One transfer as its worker measures it (see `TransferMeters`). */
export const PublishedTransfer = z.object({
  id: z.number().int().positive(),
  bytesPerSecond: rate,
  etaSeconds: rate,
  percent: z.number().min(0).max(100).nullable(),
});
export type PublishedTransfer = z.infer<typeof PublishedTransfer>;

/**
 * What the process that works the queue says of its transfers and its pace, for the processes that show
 * the queue without working it (a `serve` tab while `dubdesk run` works in a terminal). `owner` is the
 * queue lock it holds: a reader believes the rates only while that holder lives.
 */
export const PublishedRates = z.object({
  owner: z.string().min(1),
  transfers: z.array(PublishedTransfer).max(1000),
  /** Seconds one job takes from its upload to its results, as the worker has seen them (null: none yet). */
  jobSeconds: rate,
});
export type PublishedRates = z.infer<typeof PublishedRates>;

/**
 * The worker's rates in the shared database, so the change feed carries them to every process. Written by
 * the holder of the queue lock only (at most once a second, by its publisher), removed with its lock.
 */
export class RatesStore {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      holder: db.prepare(`SELECT owner, pid, host FROM runner_lock WHERE id = 1`),
      put: db.prepare(
        `INSERT INTO settings (key, value) VALUES (@key, @value) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      read: db.prepare(`SELECT value FROM settings WHERE key = ?`).pluck(),
    };
  }

  /**
   * Writes this process's rates, if it holds the queue lock (one process in a run holds it; a run that
   * ended or lost it writes nothing). False when it did not.
   */
  publish(rates: Omit<PublishedRates, 'owner'>): boolean {
    return this.t.tx(() => {
      const holder = this.q.holder.get() as { owner: string; pid: number; host: string } | undefined;
      if (!holder || holder.pid !== process.pid || holder.host !== hostname()) return false;
      const value: PublishedRates = { owner: holder.owner, ...rates };
      this.q.put.run({ key: RATES_KEY, value: JSON.stringify(value) });
      this.t.changes.ratesChanged();
      return true;
    });
  }

  /** The rates as published, checked (null: none, or a value this version cannot read). */
  read(): PublishedRates | null {
    const raw = this.q.read.get(RATES_KEY);
    if (typeof raw !== 'string') return null;
    try {
      const parsed = PublishedRates.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
