import { join } from 'node:path';
import { storeAt, storeOn } from '../helpers/store';
import { describe, expect, it } from 'vitest';
import type { JobFilter } from '../../shared/contract/jobs';
import { checkWhole, FULL_CHECK_MAX_BYTES } from '../../electron/engine/db/damage';
import { openDatabase } from '../../electron/engine/db/open';
import { tempDir } from '../helpers/temp-dir';
import { recordingDb } from '../helpers/recording-db';
import { seedQueue } from '../helpers/seed';
import { sortAgainstQueue } from '../../electron/engine/app/batches/against-queue';
import { enqueueBatch } from '../../electron/engine/app/batches/enqueue';
import { newJob } from '../helpers/new-job';

const LANGS = ['es', 'fr', 'de', 'it', 'pt'];

/** A job store whose statements are recorded, to be explained afterwards. */
function recordingStore(home: string) {
  const { db, ran, plans } = recordingDb(home);
  return { store: storeOn(db), ran, plans };
}

/**
 * Whether a statement reads every live row of `jobs`: a bare scan always does; an index walk does unless a
 * LIMIT stops it (a count, a sum or a GROUP BY walks it to the end).
 */
const readsAllJobs = ({ sql, plan }: { sql: string; plan: string[] }) =>
  plan.some(
    (d) =>
      /^SCAN jobs(?! USING)/.test(d) ||
      (/^SCAN jobs USING/.test(d) && (/count\(|sum\(|GROUP BY/i.test(sql) || !/LIMIT/.test(sql))),
  );

describe('the queue at scale: lists and totals never read the whole history', () => {
  it('the header counts and credit sums read the maintained aggregates, not the jobs table', () => {
    const home = tempDir();
    seedQueue(home, 50, LANGS);
    const { store, ran, plans } = recordingStore(home);
    ran.length = 0;
    store.lists.countsByState();
    store.lists.creditSums();
    const explained = plans();
    expect(explained.length).toBeGreaterThan(0);
    for (const { sql, plan } of explained) expect(plan.join(' | '), sql).not.toMatch(/\bjobs\b/);
    store.db.close();
  });

  it('the first page of the list (jobs, sources, a view of states) walks an index, never a full scan', () => {
    const home = tempDir();
    seedQueue(home, 50, LANGS);
    const { store, ran, plans } = recordingStore(home);
    const filters: JobFilter[] = [{}, { states: ['queued'] }];
    for (const f of filters) {
      ran.length = 0;
      store.lists.page(f, 0, 100);
      if (!f.states) store.lists.sourcesPage(f, 0, 100);
      const explained = plans();
      expect(explained.length).toBeGreaterThan(0);
      for (const p of explained) expect(readsAllJobs(p), `${p.sql}\n${p.plan.join('\n')}`).toBe(false);
    }
    store.db.close();
  });

  it('the history aging finds the oldest finished job and the due ones on jobs_aging, not by state', () => {
    // By state, it walked every finished job (95,000 in the scale home: 30 ms at each start).
    const home = tempDir();
    seedQueue(home, 50, LANGS);
    const { store, ran, plans } = recordingStore(home);
    ran.length = 0;
    store.aging.oldestFinishedAt();
    store.aging.archive(0, Date.now(), 100);
    const explained = plans().filter((p) => /\bjobs\b/.test(p.sql));
    expect(explained.length).toBe(2);
    for (const { sql, plan } of explained) expect(plan.join(' | '), sql).toMatch(/INDEX jobs_aging\b/);
    store.db.close();
  });

  it('the unfiltered page of sources and its total come from live_sources, in queue order', () => {
    const home = tempDir();
    seedQueue(home, 30, LANGS);
    const { store } = recordingStore(home);
    const page = store.lists.sourcesPage({}, 10, 5);
    expect(page.total).toBe(30);
    expect(page.groups.map((g) => g.source)).toEqual(
      store.db
        .prepare(`SELECT source FROM jobs GROUP BY source ORDER BY min(id) LIMIT 5 OFFSET 10`)
        .pluck()
        .all(),
    );
    expect(page.groups.every((g) => g.rows.length === LANGS.length)).toBe(true);
    store.db.close();
  });

  it('the aggregates agree with counting every row, through inserts, state changes, clears and deletes', () => {
    const home = tempDir();
    seedQueue(home, 40, LANGS);
    const { store } = recordingStore(home);
    const now = Date.now();
    const ids = store.db.prepare(`SELECT id FROM jobs ORDER BY id`).pluck().all() as number[];
    ids.forEach((id, i) => {
      if (i % 3 === 0)
        store.writes.write(id, 'user', { state: 'completed', step: 'done', credits_charged: 40 }, now);
      else if (i % 5 === 0) store.writes.write(id, 'user', { state: 'failed', error: 'x' }, now);
      else if (i % 7 === 0) store.writes.write(id, 'user', { duration: 12.5, studio: 1 }, now);
    });
    // The user's order moves rows of the list: each source's place follows its first job's.
    store.order.move(
      ids.filter((_, i) => i % 4 === 1),
      'top',
    );
    store.order.move(
      ids.filter((_, i) => i % 11 === 2),
      { before: ids[30] ?? 0 },
    );
    store.writes.remove(ids.filter((_, i) => i % 6 === 0 || i % 5 === 0)); // clears completed, deletes failed
    const source = store.reads.get(ids[1] ?? 0)?.source ?? '';
    store.writes.remove([ids[1] ?? 0]); // a queued job: not removable, nothing changes
    const brute = store.db
      .prepare(
        `SELECT state, count(*) AS n,
           sum(CASE WHEN credits_charged IS NULL AND state NOT IN ('failed', 'canceled') AND duration IS NOT NULL
             THEN (CAST(duration AS INTEGER) + (duration > CAST(duration AS INTEGER))) * (1 + studio) ELSE 0 END) AS committed,
           sum(coalesce(credits_charged, 0)) AS charged
         FROM jobs WHERE cleared_at IS NULL AND archived_at IS NULL GROUP BY state`,
      )
      .all() as { state: string; n: number; committed: number; charged: number }[];
    expect(store.lists.countsByState()).toEqual(Object.fromEntries(brute.map((r) => [r.state, r.n])));
    expect(store.lists.creditSums()).toEqual({
      committed: brute.reduce((a, r) => a + r.committed, 0),
      charged: brute.reduce((a, r) => a + r.charged, 0),
    });
    const sources = store.db
      .prepare(
        `SELECT source, min(id) AS first_id, count(*) AS jobs, min(queue_order) AS first_order
          FROM jobs WHERE cleared_at IS NULL AND archived_at IS NULL GROUP BY source ORDER BY source`,
      )
      .all();
    expect(
      store.db.prepare(`SELECT source, first_id, jobs, first_order FROM live_sources ORDER BY source`).all(),
    ).toEqual(sources);
    expect(store.lists.sourcesPage({ source }, 0, 10).groups[0]?.rows.length).toBeGreaterThan(0);
    store.db.close();
  });

  it('a copy (its results linked from a dub already made) commits no credits', () => {
    const home = tempDir();
    seedQueue(home, 1, ['es']);
    const store = storeAt(join(home, 'dubdesk.db'));
    const dubbed = store.lists.creditSums().committed;
    const [row] = store.lists.page({}, 0, 1).rows;
    const job = store.reads.get(row?.id ?? 0);
    if (!job) throw new Error('the seeded job is missing');
    const { id: _id, ...fields } = job;
    store.writes.insert({ ...fields, dest_lang: 'fr', reuse_results: 1 } as never, Date.now());
    expect(store.lists.page({}, 0, 10).total).toBe(2);
    expect(store.lists.creditSums().committed).toBe(dubbed);
    store.db.close();
  });

  it('search answers from the trigram index, with the same rows as matching every name', () => {
    const home = tempDir();
    seedQueue(home, 60, LANGS);
    const { store, ran, plans } = recordingStore(home);
    ran.length = 0;
    const found = store.lists.page({ search: 'VIEW WITH' }, 0, 500);
    store.lists.sourcesPage({ search: 'VIEW WITH' }, 0, 100);
    expect(plans().some((p) => p.plan.some((d) => d.includes('VIRTUAL TABLE')))).toBe(true);
    for (const p of plans()) expect(readsAllJobs(p), `${p.sql}\n${p.plan.join('\n')}`).toBe(false);
    const brute = store.db
      .prepare(`SELECT id FROM jobs WHERE source_name LIKE '%view with%' ORDER BY id`)
      .pluck()
      .all();
    expect(found.rows.map((r) => r.id)).toEqual(brute);
    expect(found.total).toBe(brute.length);
    expect(brute.length).toBeGreaterThan(0);
    // Two letters: below the trigram's reach, still answered (from the rows).
    expect(store.lists.page({ search: '05' }, 0, 500).total).toBeGreaterThan(0);
    store.db.close();
  });
});

describe('adding a batch to a large queue', () => {
  it('looks jobs up by source and by content, never through every job of a state', async () => {
    const home = tempDir();
    seedQueue(home, 40, LANGS);
    const { store, ran, plans } = recordingStore(home);
    const jobs = ['es', 'fr'].flatMap((dest_lang) =>
      [0, 1, 2].map((i) =>
        newJob(`/v/new-${i}.mp4`, { dest_lang, source_hash: String(i).padStart(64, 'f') }),
      ),
    );
    ran.length = 0;
    const sorted = await sortAgainstQueue(store, jobs, false);
    await enqueueBatch(store, sorted, false);
    const lookups = plans().filter((p) => /^\s*SELECT/i.test(p.sql) && /\bFROM jobs\b/.test(p.sql));
    expect(lookups.length).toBeGreaterThan(2);
    for (const { sql, plan } of lookups)
      for (const step of plan.filter((d) => /\bjobs\b/.test(d)))
        expect(step, sql).toMatch(
          /USING (COVERING )?INDEX jobs_(source|source_hash|live_source_lang|completed_source_lang)\b|INDEX jobs_queue_order$|INTEGER PRIMARY KEY/,
        );
    store.db.close();
  });
});

describe('opening a large queue database', () => {
  it('does not read every page (no quick_check above the limit) yet still finds a truncated file', () => {
    const db = openDatabase(join(tempDir(), 'big.db'));
    const asked: string[] = [];
    const spy = {
      pragma: (s: string, o: { simple: true }) => (asked.push(s), db.pragma(s, o)),
      prepare: (s: string) => db.prepare(s),
    };
    const pages = (db.pragma('page_count', { simple: true }) as number) * 4096;
    checkWhole(spy, { bytes: FULL_CHECK_MAX_BYTES + 1 + pages, walBytes: 0 });
    expect(asked).not.toContain('quick_check');
    expect(() => checkWhole(spy, { bytes: FULL_CHECK_MAX_BYTES + 1, walBytes: 0 })).not.toThrow();
    // A file shorter than its pages (and no WAL holding them) is damaged.
    const big = (n: number) => ({
      pragma: (s: string) => (s === 'page_count' ? n : 4096),
      prepare: spy.prepare,
    });
    expect(() => checkWhole(big(20_000), { bytes: FULL_CHECK_MAX_BYTES + 1, walBytes: 0 })).toThrow(
      /truncated/,
    );
    checkWhole(spy, { bytes: 1000, walBytes: 0 });
    expect(asked).toContain('quick_check');
    db.close();
  });
});
