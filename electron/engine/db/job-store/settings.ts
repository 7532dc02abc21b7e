import { transactionsOf, type Transactions } from '../transactions';
import type { Db } from '../types';

/** The app's settings: one key-value table beside the queue (what the application layer's settings read and write). */
export class SettingsTable {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      get: db.prepare(`SELECT value FROM settings WHERE key = ?`),
      put: db.prepare(
        `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      delete: db.prepare(`DELETE FROM settings WHERE key = ?`),
    };
  }

  get(key: string): string | undefined {
    return (this.q.get.get(key) as { value: string } | undefined)?.value;
  }

  /** Null deletes the key. */
  set(key: string, value: string | null): void {
    this.t.write(() => {
      if (value === null) this.q.delete.run(key);
      else this.q.put.run(key, value);
      this.t.changes.setting(key);
    });
  }
}
