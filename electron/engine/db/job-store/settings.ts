import type { Db } from '../open';

/** The app's settings: one key-value table beside the queue (what the facade's settings read and write). */
export class SettingsTable {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      get: db.prepare(`SELECT value FROM settings WHERE key = ?`),
      put: db.prepare(
        `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
      delete: db.prepare(`DELETE FROM settings WHERE key = ?`),
    };
  }

  setting(key: string): string | undefined {
    return (this.q.get.get(key) as { value: string } | undefined)?.value;
  }

  /** Null deletes the key. */
  setSetting(key: string, value: string | null): void {
    if (value === null) this.q.delete.run(key);
    else this.q.put.run(key, value);
  }
}
