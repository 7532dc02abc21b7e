import type { Area } from './changes';
import type { Db } from './types';

const AREAS: readonly Area[] = ['jobs', 'folders', 'settings', 'lock', 'presets', 'rates'];
const keyOf = (area: Area) => `change.${area}`;

/**
 * One counter per area in the settings table, moved by every commit that changed the area, in that commit:
 * what tells another process WHAT a commit changed, once `data_version` told it that one was made. One
 * small row per area, so a commit writes one page more and nobody has a log to prune.
 */
export class ChangeMarks {
  private readonly q;
  /** The marks as this connection last saw them (its own commits included). */
  private seen: Map<Area, number> | null = null;

  constructor(db: Db) {
    this.q = {
      bump: db
        .prepare(
          `INSERT INTO settings (key, value) VALUES (?, '1')
             ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value`,
        )
        .pluck(),
      read: db.prepare(
        `SELECT key, value FROM settings WHERE key IN (${AREAS.map((a) => `'${keyOf(a)}'`).join(', ')})`,
      ),
    };
  }

  /**
   * Moves the marks of `areas`, inside the commit that changed them; returns the areas another process
   * moved too since this one last looked (its change would otherwise go unheard).
   */
  bump(areas: readonly Area[]): Area[] {
    const alsoElsewhere: Area[] = [];
    for (const area of areas) {
      const value = Number(this.q.bump.get(keyOf(area)));
      const before = this.seen?.get(area);
      if (before !== undefined && value !== before + 1) alsoElsewhere.push(area);
      this.seen?.set(area, value);
    }
    return alsoElsewhere;
  }

  /** The areas whose marks moved since this connection last looked (the first look only learns them). */
  moved(): Set<Area> {
    const now = new Map<Area, number>();
    for (const r of this.q.read.all() as { key: string; value: string }[])
      now.set(r.key.slice('change.'.length) as Area, Number(r.value));
    const moved = new Set<Area>();
    if (this.seen)
      for (const area of AREAS) if ((now.get(area) ?? 0) !== (this.seen.get(area) ?? 0)) moved.add(area);
    this.seen = now;
    return moved;
  }
}
