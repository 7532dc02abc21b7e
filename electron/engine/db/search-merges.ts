import { z } from 'zod';
import type { Db } from './types';

/** FTS5's own `automerge`: a level of the index merges once it holds this many segments. */
const AUTOMERGE = 4;
/** Pages of merge work a step does: a few milliseconds, against the 64 pages per level automerge does at once. */
const PAGES_PER_STEP = 64;

const Setting = z.object({ v: z.number().int() });

/**
 * The merges of the search index (`source_search`, FTS5) taken out of a long run of writes. FTS5 merges
 * its segments as it writes them: every 64 pages written, 64 pages of merging for each level of the index
 * at once, inside whichever statement wrote them: in a big add, that made a window's turn of the event
 * loop the longest of the add now and then. While a run holds them, writes do not merge (`automerge` 0); the
 * run merges a step at a time between its commits, each step a turn of its own. `automerge` is stored in
 * the index: a run killed while it held it leaves 0 there, which the next run puts back to FTS5's own.
 */
export class SearchMerges {
  private holders = 0;
  /** What the first hold found, put back by the last release. */
  private restore = AUTOMERGE;

  constructor(private readonly db: Db) {}

  /** Prepared when first used: a store may be made on a database its migrations have not reached. */
  private run(sql: string): unknown {
    return this.db.prepare(sql).get();
  }

  /**
   * Writes stop merging the index until the returned release (runs may overlap: the last one restores).
   * Call it and the release inside a write transaction.
   */
  hold(): () => void {
    if (this.holders++ === 0) {
      const stored = Setting.safeParse(this.run(`SELECT v FROM source_search_config WHERE k = 'automerge'`));
      this.restore = stored.success && stored.data.v > 0 ? stored.data.v : AUTOMERGE;
      this.setAutomerge(0);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holders === 0) this.setAutomerge(this.restore);
    };
  }

  /** A step of the merging the writes held back (nothing when no level is due one). */
  step(): void {
    this.db
      .prepare(`INSERT INTO source_search (source_search, rank) VALUES ('merge', ?)`)
      .run(PAGES_PER_STEP);
  }

  private setAutomerge(n: number): void {
    // FTS5 takes only an integer here, and a bound JS number arrives as a real: written into the SQL.
    const value = Math.max(0, Math.trunc(n));
    this.db.prepare(`INSERT INTO source_search (source_search, rank) VALUES ('automerge', ${value})`).run();
  }
}

const connections = new WeakMap<Db, SearchMerges>();

/** The search index's merges of a connection: one per connection, whichever store asks. */
export function searchMergesOf(db: Db): SearchMerges {
  let m = connections.get(db);
  if (!m) connections.set(db, (m = new SearchMerges(db)));
  return m;
}
