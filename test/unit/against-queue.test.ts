import type Database from 'better-sqlite3';
import { storeOn } from '../helpers/store';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { sortAgainstQueue } from '../../electron/engine/app/batches/against-queue';
import { enqueueBatch } from '../../electron/engine/app/batches/enqueue';
import { SMALL_FIRST_WINDOW } from '../../electron/engine/db/job-store/due';
import { refuseResultCopies } from '../../electron/engine/app/batches/result-copies';
import { TimeSlices } from '../../electron/engine/app/time-slices';
import { type NewJob } from '../../electron/engine/db/jobs';
import { openDatabase } from '../../electron/engine/db/open';
import { enqueueUnlessLive } from '../../electron/engine/jobs/life';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';

/** A store over a real file that counts the statements it runs. */
function countingStore() {
  const db = openDatabase(join(tempDir(), 'dubdesk.db'));
  const prepare = db.prepare.bind(db);
  const ran = { n: 0 };
  (db as { prepare: (sql: string) => Database.Statement }).prepare = (sql: string) => {
    const st = prepare(sql);
    for (const m of ['all', 'get', 'run'] as const) {
      const f = st[m].bind(st) as (...a: unknown[]) => unknown;
      (st as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => {
        ran.n++;
        return f(...args);
      };
    }
    return st;
  };
  return { store: storeOn(db), ran };
}

/** `files` sources of distinct content, each to `langs`. */
const batch = (files: number, langs = ['es', 'fr']): NewJob[] =>
  Array.from({ length: files }, (_, i) =>
    langs.map((dest_lang) =>
      newJob(`/v/clip-${i}.mp4`, { dest_lang, source_hash: i.toString(16).padStart(64, '0') }),
    ),
  ).flat();

/** Counts the event loop's turns while `work` runs. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let on = true;
  const count = async () => {
    while (on) {
      await turn();
      if (on) turns++; // a turn that came after the work ended is not one it gave
    }
  };
  const counting = count();
  const result = await work();
  on = false;
  await counting;
  return { result, turns };
}

describe('a batch against the queue', () => {
  it('looks up what is being dubbed for the whole batch at once, not once per job', async () => {
    const { store, ran } = countingStore();
    // Content 0 is being dubbed from another file: the batch's file of that content is a copy of it.
    enqueueUnlessLive(
      store,
      newJob('/elsewhere/take-0.mp4', { source_hash: batch(1)[0]?.source_hash }),
      1,
      false,
    );
    ran.n = 0;
    const small = await sortAgainstQueue(store, batch(10), false);
    const smallStatements = ran.n;
    ran.n = 0;
    const big = await sortAgainstQueue(store, batch(1000), false);
    expect(ran.n).toBe(smallStatements);
    for (const sorted of [small, big]) {
      expect(sorted.fresh.filter((j) => j.reuse_results === 1).map((j) => j.source)).toEqual([
        '/v/clip-0.mp4',
      ]);
      expect(sorted.fresh).toHaveLength(small === sorted ? 20 : 2000);
    }
  });

  it('gives the event loop its turns while it sorts and writes a big batch', async () => {
    const { store } = countingStore();
    const jobs = batch(2 * SMALL_FIRST_WINDOW);
    const sorting = await turnsDuring(() => sortAgainstQueue(store, jobs, false, new TimeSlices(0)));
    expect(sorting.turns).toBeGreaterThan(0);
    const writing = await turnsDuring(() => enqueueBatch(store, sorting.result, false, new TimeSlices(0)));
    // A transaction per slice (each a window of the small-first order at least), a turn after each.
    expect(writing.turns).toBeGreaterThanOrEqual(jobs.length / SMALL_FIRST_WINDOW - 1);
    expect(writing.result.added).toHaveLength(jobs.length);
    expect(store.db.prepare(`SELECT count(*) AS n FROM jobs`).get()).toEqual({ n: jobs.length });
  });

  it('asks a thousand files at a time, not once per file or language, whether a file is a copy of a result', async () => {
    const { store, ran } = countingStore();
    const jobs = batch(3, ['es', 'fr', 'de', 'it', 'pt']);
    ran.n = 0;
    const planned = {
      files: [],
      jobs,
      refused: [],
      sends: { bySource: new Map(), notice: null, streams: new Map() },
    };
    await refuseResultCopies(store, planned);
    // One query for which files are results themselves, one for which are copies of one.
    expect(ran.n).toBe(2);
    expect(planned.jobs).toHaveLength(15);
  });

  it('gives the event loop its turns while it asks whether a big batch holds copies of results', async () => {
    const { store } = countingStore();
    const planned = {
      files: [],
      jobs: batch(2500, ['es']),
      refused: [],
      sends: { bySource: new Map(), notice: null, streams: new Map() },
    };
    const asking = await turnsDuring(async () => {
      await refuseResultCopies(store, planned, new TimeSlices(0));
    });
    expect(asking.turns).toBeGreaterThan(1);
    expect(planned.jobs).toHaveLength(2500);
  });

  it('writes a batch with a few statements per 50 jobs, not several per job', async () => {
    const { store, ran } = countingStore();
    // Content 0 is being dubbed already, content 1 was dubbed: their jobs here are paid for once.
    enqueueUnlessLive(
      store,
      newJob('/elsewhere/take-0.mp4', { source_hash: batch(1)[0]?.source_hash }),
      1,
      false,
    );
    const done = enqueueUnlessLive(
      store,
      newJob('/elsewhere/take-1.mp4', { source_hash: batch(2)[2]?.source_hash }),
      1,
      false,
    );
    store.writes.write(done ?? 0, 'user', { state: 'completed', step: 'done' }, 1);
    const sorted = { fresh: batch(500), queued: [], failed: [], done: [], queuedJobs: [], copyOf: new Map() };
    ran.n = 0;
    const { added } = await enqueueBatch(store, sorted, false, new TimeSlices(1e9));
    expect(added).toHaveLength(1000);
    // A few per 50 jobs inserted, and a few per window of the small-first placing and the batch tag.
    expect(ran.n).toBeLessThanOrEqual((1000 / 50) * 4 + Math.ceil(1000 / SMALL_FIRST_WINDOW) * 4);
    const reused = store.db
      .prepare(`SELECT source FROM jobs WHERE reuse_results = 1 ORDER BY id`)
      .pluck()
      .all();
    expect(reused).toEqual(['/v/clip-0.mp4', '/v/clip-1.mp4']); // Spanish only: what was paid
  });
});
