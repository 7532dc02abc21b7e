import type { SourceRow } from '../../../shared/contract/jobs';
import { onPageShown, pageHidden } from '../page-visibility';
import type { SliceMaker, QueueSlice } from './types';
import { filterFor, stateInView, type QueueView } from './views';

/**
 * Rows (sources) fetched per request; the virtualizer asks for the pages it shows. About a screenful: the
 * first rows wait for the first page, and every page that arrives while scrolling is read, checked (zod)
 * and stored in one task, between two frames. A page of 100 sources was ~350 KB of JSON and a 10-17 ms
 * task; 25 make tasks a quarter of that.
 */
export const PAGE_SIZE = 25;
/** Pages kept beyond the visible ones, each side: fetched ahead of a scroll, kept for a short scroll back. */
export const KEEP_AROUND = 2;
/** Job events that need a refetch (a new job, a job leaving the view) are gathered for this long. */
const REFETCH_DELAY_MS = 300;

const pageOf = (row: number) => Math.floor(row / PAGE_SIZE);

/** What listSources is asked for one page of a view (the page's first calls send the first one early). */
export const pageRequest = (view: QueueView, search: string, page: number, queuePaused = false) => ({
  filter: filterFor(view, search, queuePaused),
  offset: page * PAGE_SIZE,
  limit: PAGE_SIZE,
});

export const createQueueSlice: SliceMaker<QueueSlice> = (bridge) => (set, get) => {
  const inFlight = new Set<string>();
  // Pages asked for again while a fetch of theirs was on its way: that answer may have been read before the
  // change that asked (a move, a new job), so the page is fetched once more when it lands.
  const askedAgain = new Set<string>();
  let refetchTimer: ReturnType<typeof setTimeout> | null = null;
  // Hidden, the rows are not fetched again: once, when the window is shown.
  let refetchWhenShown = false;
  onPageShown(() => {
    if (!refetchWhenShown) return;
    refetchWhenShown = false;
    get().refetchPages();
  });
  /** The rows the virtualizer shows: not state, since nothing renders from it. */
  let visibleRows = { start: 0, end: PAGE_SIZE - 1 };

  function wantedPages(): number[] {
    const { start, end } = visibleRows;
    const rowCount = get().rowCount;
    const last = rowCount === null ? pageOf(end) : Math.max(0, pageOf(Math.max(0, rowCount - 1)));
    const from = Math.max(0, pageOf(start) - KEEP_AROUND);
    const to = Math.min(last, pageOf(end) + KEEP_AROUND);
    const pages: number[] = [];
    for (let p = from; p <= to; p++) pages.push(p);
    return pages;
  }

  async function load(page: number, force: boolean): Promise<void> {
    const gen = get().queueGeneration;
    const key = `${gen}:${page}`;
    if (inFlight.has(key)) {
      if (force) askedAgain.add(key);
      return;
    }
    if (!force && get().pages[page]) return;
    inFlight.add(key);
    try {
      const { view, search, totals } = get();
      const answer = await bridge.listSources(pageRequest(view, search, page, totals?.paused != null));
      if (get().queueGeneration !== gen) return;
      const firstAnswer = get().rowCount === null;
      set((s) => ({
        rowCount: answer.total,
        pages: { ...s.pages, [page]: answer.sources },
        queueError: null,
      }));
      // Only now is the list's length known: the pages around the view beyond this one can be asked for.
      if (firstAnswer) for (const p of wantedPages()) if (!get().pages[p]) void load(p, false);
    } catch (e) {
      if (get().queueGeneration === gen) set({ queueError: e instanceof Error ? e.message : String(e) });
    } finally {
      inFlight.delete(key);
      if (askedAgain.delete(key) && get().queueGeneration === gen) void load(page, true);
    }
  }

  /** The pages near the view; the same object when none is far (so no subscriber is woken for nothing). */
  function keepNear(pages: Readonly<Record<number, readonly SourceRow[]>>) {
    const keep = new Set(wantedPages());
    const kept: Record<number, readonly SourceRow[]> = {};
    let dropped = false;
    for (const [p, rows] of Object.entries(pages)) {
      if (keep.has(Number(p))) kept[Number(p)] = rows;
      else dropped = true;
    }
    return dropped ? kept : pages;
  }

  function restart(patch: Partial<QueueSlice>) {
    visibleRows = { start: 0, end: PAGE_SIZE - 1 };
    set((s) => ({
      ...patch,
      // "Every row" was of the view left: not of the new one.
      allOf: null,
      queueGeneration: s.queueGeneration + 1,
      pages: {},
      rowCount: null,
    }));
    void load(0, true);
  }

  return {
    view: 'all',
    search: '',
    rowCount: null,
    pages: {},
    queueGeneration: 0,
    queueError: null,

    setView(view) {
      if (view !== get().view) restart({ view });
    },
    setSearch(search) {
      if (search !== get().search) restart({ search });
    },
    showRows(start, end) {
      visibleRows = { start, end };
      const kept = keepNear(get().pages);
      if (kept !== get().pages) set({ pages: kept });
      for (const p of wantedPages()) void load(p, false);
    },
    refetchPages() {
      if (refetchTimer) {
        clearTimeout(refetchTimer);
        refetchTimer = null;
      }
      if (pageHidden()) {
        refetchWhenShown = true;
        return;
      }
      const kept = keepNear(get().pages);
      if (kept !== get().pages) set({ pages: kept });
      const pages = wantedPages();
      if (pages.length === 0) pages.push(0);
      for (const p of pages) void load(p, true);
    },
    patchJob(job) {
      const { pages, view } = get();
      const queuePaused = get().totals?.paused != null;
      let found = false;
      for (const [key, rows] of Object.entries(pages)) {
        const r = rows.findIndex((row) => row.jobs.some((j) => j.id === job.id));
        if (r < 0) continue;
        found = true;
        const row = rows[r] as SourceRow;
        const newRow: SourceRow = { ...row, jobs: row.jobs.map((j) => (j.id === job.id ? job : j)) };
        const newRows = rows.slice();
        newRows[r] = newRow;
        set({ pages: { ...pages, [Number(key)]: newRows } });
        if (stateInView(view, job.state, queuePaused)) return;
        break;
      }
      // Not shown and not meant to be: nothing to do.
      if (!found && !stateInView(view, job.state, queuePaused)) return;
      // A job new to the list, or one that left the view: rows move, so fetch the pages again, once.
      if (!refetchTimer) {
        refetchTimer = setTimeout(() => {
          refetchTimer = null;
          get().refetchPages();
        }, REFETCH_DELAY_MS);
      }
    },
  };
};
