import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Estimate } from '../../shared/contract/batches';
import type { JobView } from '../../shared/contract/jobs';
import type { DubdeskHost } from '../../electron/engine/index';
import { createAppStore, type AppStore } from '../../renderer/src/store/index';
import { chipKind, headerNumbers, rowDone, viewCount, waitingWords } from '../../renderer/src/store/derived';
import { estimateTotals } from '../../renderer/src/store/estimate';
import { KEEP_AROUND, PAGE_SIZE } from '../../renderer/src/store/queue';
import { rowAt } from '../../renderer/src/store/rows';
import { seededEngine, until, webBridge } from '../helpers/store-over-engine';

const loadedPages = (store: AppStore) => Object.keys(store.getState().pages).map(Number);

describe('the queue store pages through a large queue', () => {
  const SOURCES = 1000;
  const LAST_PAGE = Math.floor((SOURCES - 1) / PAGE_SIZE);
  let host: DubdeskHost;
  let store: AppStore;

  beforeAll(() => {
    host = seededEngine(SOURCES, ['es', 'fr']);
    store = createAppStore(webBridge(host.api));
  });
  afterAll(() => host.close());

  it('fetches only the pages around the rows in view, and forgets far ones', async () => {
    // The pages of rows start..end, and KEEP_AROUND more each side within the list.
    const around = (start: number, end: number) => {
      const last = Math.floor((SOURCES - 1) / PAGE_SIZE);
      const from = Math.max(0, Math.floor(start / PAGE_SIZE) - KEEP_AROUND);
      const to = Math.min(last, Math.floor(end / PAGE_SIZE) + KEEP_AROUND);
      return Array.from({ length: to - from + 1 }, (_, i) => from + i);
    };
    const showing = async (start: number, end: number) => {
      store.getState().showRows(start, end);
      const want = around(start, end);
      await until(() => loadedPages(store).join() === want.join());
      return want;
    };

    expect(await showing(0, 30)).toContain(1);
    expect(store.getState().rowCount).toBe(SOURCES);
    expect(rowAt(store.getState().pages, 0)?.jobs.map((j) => j.destLang)).toEqual(['es', 'fr']);

    const middle = await showing(5 * PAGE_SIZE + 10, 5 * PAGE_SIZE + 20);
    expect(middle).not.toContain(0);
    expect(middle).toContain(5);

    const end = await showing(SOURCES - 20, SOURCES - 1);
    expect(end.at(-1)).toBe(LAST_PAGE);
    expect(end).not.toContain(5);
  });

  it('patches a changed job in place: only its row is a new object', async () => {
    const before = store.getState().pages[LAST_PAGE] ?? [];
    const row = before[5];
    const job = row?.jobs[1] as JobView;
    store.getState().patchJob({ ...job, progress: 42 });
    const after = store.getState().pages[LAST_PAGE] ?? [];
    expect(after[5]?.jobs[1]?.progress).toBe(42);
    expect(after[5]).not.toBe(row);
    expect(after[4]).toBe(before[4]);
  });

  it('refetches the pages in view after a bulk change, and the counts follow', async () => {
    const first = store.getState().pages[LAST_PAGE]?.[0];
    const ids = first?.jobs.map((j) => j.id) ?? [];
    await host.api.cancelJobs({ ids });
    store.getState().refetchPages();
    await until(
      () => store.getState().pages[LAST_PAGE]?.[0]?.jobs.every((j) => j.state === 'canceled') === true,
    );
    await store.getState().refreshTotals();
    expect(viewCount(store.getState().totals, 'canceled')).toBe(2);
    expect(viewCount(store.getState().totals, 'all')).toBe(SOURCES * 2);
    expect(headerNumbers(store.getState().totals).left).toBe(SOURCES * 2 - 2);
  });

  it('a view is a filter: failed shows no row, search finds one', async () => {
    store.getState().setView('canceled');
    await until(() => store.getState().rowCount === 1);
    store.getState().setView('all');
    store.getState().setSearch('clip-00500');
    await until(() => store.getState().rowCount === 1);
    expect(rowAt(store.getState().pages, 0)?.sourceName).toBe('clip-00500.mp4');
    store.getState().setSearch('');
    await until(() => store.getState().rowCount === SOURCES);
  });

  it('selects a range with shift, toggles with ctrl, and counts jobs per row', async () => {
    store.getState().showRows(0, 30);
    await until(() => rowAt(store.getState().pages, 10) !== null);
    const s = store.getState();
    s.selectRow(2, 'only');
    s.selectRow(6, 'range');
    expect(Object.keys(store.getState().selected)).toHaveLength(5);
    store.getState().selectRow(4, 'toggle');
    expect(Object.keys(store.getState().selected)).toHaveLength(4);
    expect(Object.values(store.getState().selected).flat()).toHaveLength(8);
  });
});

describe('what the screens derive', () => {
  const job = (over: Partial<JobView>): JobView =>
    ({ state: 'queued', waiting: null, destLang: 'es', ...over }) as JobView;

  it('says a wait as "retrying in 30 s (attempt 2)", ticking down', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const w = job({
      waiting: {
        code: 'retry',
        message: 'the service answered 502',
        retryAt: '2026-01-01T00:00:30Z',
        attempt: 1,
      },
    });
    expect(waitingWords(w, now)).toBe('the service answered 502 — retrying in 30 s (attempt 2)');
    expect(waitingWords(w, now + 29_500)).toBe('the service answered 502 — retrying in 1 s (attempt 2)');
    expect(waitingWords(job({}), now)).toBeNull();
  });

  it('shows every state with a symbol kind, and a row of done jobs as done', () => {
    expect(
      ['queued', 'processing', 'completed', 'failed'].map((s) => chipKind(s as JobView['state'])),
    ).toEqual(['waiting', 'working', 'done', 'failed']);
    const row = {
      source: 'a',
      sourceKind: 'file' as const,
      sourceName: 'a',
      durationSeconds: 1,
      earlier: [],
    };
    expect(rowDone({ ...row, jobs: [job({ state: 'completed' }), job({ state: 'completed' })] })).toBe(true);
    expect(rowDone({ ...row, jobs: [job({ state: 'completed' }), job({ state: 'failed' })] })).toBe(false);
  });

  it('prices "dub again" with each file’s own credits, and says by how much a batch is over', () => {
    const estimate: Estimate = {
      files: [
        {
          input: '/a.mp4',
          name: 'a.mp4',
          kind: 'video',
          durationSeconds: 60,
          bytes: 1,
          creditsPerLanguage: 60,
          credits: 60,
          free: [{ lang: 'es', why: 'done', of: null }],
          problem: null,
        },
        {
          input: '/b.mp4',
          name: 'b.mp4',
          kind: 'video',
          durationSeconds: 30,
          bytes: 1,
          creditsPerLanguage: 30,
          credits: 60,
          free: [],
          problem: null,
        },
        {
          input: '/c.txt',
          name: 'c.txt',
          kind: null,
          durationSeconds: null,
          bytes: 1,
          creditsPerLanguage: null,
          credits: null,
          free: [],
          problem: { code: 'not-media', message: 'not a video' },
        },
      ],
      languages: ['es', 'fr'],
      studio: false,
      jobs: 3,
      credits: 150,
      unknownLengthJobs: 0,
      balance: 200,
      balanceAfter: 50,
      overBalance: false,
      overBudget: false,
      budgetLeft: null,
      budget: null,
      alreadyDone: [{ jobId: 1, source: '/a.mp4', destLang: 'es', outputs: [] }],
      alreadyQueued: [],
      uploadOnce: { enabled: false, bytesSaved: 0, files: 0, outOf: 1 },
    };
    expect(estimateTotals(estimate, false)).toEqual({
      goodFiles: 2,
      languages: 2,
      jobs: 3,
      credits: 150,
      alreadyDone: 1,
      alreadyQueued: 0,
      committed: 0,
      after: 50,
      overBy: 0,
    });
    expect(estimateTotals(estimate, true)).toMatchObject({ jobs: 4, credits: 210, after: -10, overBy: 10 });
    // What the queue has committed is spent before this batch: 200 - 60 - 150 is 10 short.
    expect(estimateTotals(estimate, false, 60)).toMatchObject({ committed: 60, after: -10, overBy: 10 });
  });
});
