import { z } from 'zod';
import { transactionsOf, type Transactions } from './transactions';
import type { Db } from './types';

/** A preset's row: its options are JSON, read back through the contract's schema by the caller. */
const PresetRow = z.object({ name: z.string(), options: z.string(), updated_at: z.number().int() });
export type PresetRow = z.infer<typeof PresetRow>;

/**
 * Named presets (`presets`, migration 17): one row per name, names equal whatever their case. A save or a
 * delete is announced on the change feed (every process's faces list them again).
 */
export class PresetTable {
  private readonly q;
  private readonly t: Transactions;

  constructor(db: Db) {
    this.t = transactionsOf(db);
    this.q = {
      all: db.prepare(`SELECT name, options, updated_at FROM presets ORDER BY name COLLATE NOCASE`),
      one: db.prepare(`SELECT name, options, updated_at FROM presets WHERE name = ?`),
      save: db.prepare(
        `INSERT INTO presets (name, options, updated_at) VALUES (@name, @options, @at)
          ON CONFLICT (name) DO UPDATE SET name = excluded.name, options = excluded.options, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare(`DELETE FROM presets WHERE name = ?`),
    };
  }

  all(): PresetRow[] {
    return this.q.all.all().map((r) => PresetRow.parse(r));
  }

  get(name: string): PresetRow | null {
    const row = this.q.one.get(name);
    return row ? PresetRow.parse(row) : null;
  }

  save(name: string, options: string, at: number): void {
    this.t.write(() => {
      this.q.save.run({ name, options, at });
      this.t.changes.presetsChanged();
    });
  }

  /** True when there was one to delete. */
  remove(name: string): boolean {
    return this.t.write(() => {
      const removed = this.q.remove.run(name).changes > 0;
      if (removed) this.t.changes.presetsChanged();
      return removed;
    });
  }
}
