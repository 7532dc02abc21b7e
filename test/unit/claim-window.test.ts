import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SMALL_FIRST_WINDOW } from '../../electron/engine/db/job-store/due';
import { openDatabase } from '../../electron/engine/db/open';
import { transactionsOf } from '../../electron/engine/db/transactions';
import { enqueueManyUnlessLive } from '../../electron/engine/jobs/life';
import { newJob } from '../helpers/new-job';
import { storeOn } from '../helpers/store';
import { tempDir } from '../helpers/temp-dir';

/** A store over a real file that keeps the SQL of every statement it runs. */
function recordingStore() {
  const db = openDatabase(join(tempDir(), 'dubdesk.db'));
  const prepare = db.prepare.bind(db);
  const ran: string[] = [];
  (db as { prepare: (sql: string) => Database.Statement }).prepare = (sql: string) => {
    const st = prepare(sql);
    for (const m of ['all', 'get', 'run'] as const) {
      const f = st[m].bind(st) as (...a: unknown[]) => unknown;
      (st as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => {
        ran.push(sql);
        return f(...args);
      };
    }
    return st;
  };
  return { store: storeOn(db), ran };
}

/** Statements that walk the window of due uploads (the next `SMALL_FIRST_WINDOW` in the queue's order). */
const windowWalks = (ran: readonly string[]) =>
  ran.filter((sql) => /jobs_submit_order\b/.test(sql) && sql.includes(`${SMALL_FIRST_WINDOW}`));

const files = (n: number) => Array.from({ length: n }, (_, i) => newJob(`/v/clip-${i}.mp4`));

describe("the runner's claim of due uploads", () => {
  it('reads the first jobs of the queue, not the whole window, when none of them sends nothing', () => {
    const { store, ran } = recordingStore();
    enqueueManyUnlessLive(store, files(300), Date.now(), true);
    ran.length = 0;
    const claimed = store.leases.claim('submit', 4, 'svc', () => false, Date.now(), 16);
    expect(claimed.map((c) => [c.row.id, c.offLink])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, false],
    ]);
    expect(windowWalks(ran)).toEqual([]);
  });

  it('still starts a copy in the window first, beside the uploads, and not one beyond it', () => {
    const { store } = recordingStore();
    // A copy (its results are linked, nothing is sent) inside the window, and one beyond it.
    const inside = 100;
    const beyond = SMALL_FIRST_WINDOW + 20;
    const jobs = files(SMALL_FIRST_WINDOW + 40).map((j, at) =>
      at === inside || at === beyond ? { ...j, reuse_results: 1 } : j,
    );
    enqueueManyUnlessLive(store, jobs, Date.now(), true);
    const claimed = store.leases.claim('submit', 2, 'svc', () => false, Date.now(), 16);
    expect(claimed.map((c) => [c.row.id, c.offLink])).toEqual([
      [inside + 1, true],
      [1, false],
      [2, false],
    ]);
    // Once the window has moved past it (the first 30 jobs started), the later copy is in it.
    store.db.prepare(`UPDATE jobs SET step = 'track', state = 'submitted' WHERE id <= 30`).run();
    store.db.prepare(`UPDATE jobs SET lease_token = NULL`).run();
    const next = store.leases.claim('submit', 0, 'svc', () => false, Date.now(), 16);
    expect(next.map((c) => [c.row.id, c.offLink])).toEqual([
      [inside + 1, true],
      [beyond + 1, true],
    ]);
  });

  it('takes no write lock when no upload slot is free and nothing due sends nothing', () => {
    const { store } = recordingStore();
    enqueueManyUnlessLive(store, files(20), Date.now(), true);
    const t = transactionsOf(store.db);
    const tx = t.tx.bind(t);
    let writes = 0;
    t.tx = ((...a: Parameters<typeof tx>) => (writes++, tx(...a))) as typeof t.tx;
    expect(store.leases.claim('submit', 0, 'svc', () => false, Date.now(), 16)).toEqual([]);
    expect(writes).toBe(0);
    // A slot free: the claim is made, in its one transaction.
    expect(store.leases.claim('submit', 1, 'svc', () => false, Date.now(), 16)).toHaveLength(1);
    expect(writes).toBe(1);
  });
});
