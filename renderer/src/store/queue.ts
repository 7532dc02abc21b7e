import type { JobView, SourceRow } from '../../../shared/contract/jobs';
import type { SliceMaker } from './types';
import { filterFor, stateInView, type QueueView } from './views';

/** Rows (sources) fetched per request; the virtualizer asks for the pages it shows. */
export const PAGE_SIZE = 100;
/**
 * The very first request of a list asks for a screenful, not a page: a tall window shows about 30 rows.
 * A page of 100 sources is ~350 KB of JSON to read, check and hold before the first row can be drawn; the
 * rest of the page is fetched right after.
 */
export const FIRST_ROWS = 32;
/** Pages kept beyond the visible ones, each side, so a short scroll back needs no request. */
const KEEP_AROUND = 1;
/** Job events that need a refetch (a new job, a job leaving the view) are gathered for this long. */
const REFETCH_DELAY_MS = 300;

export interface QueueSlice {
  view: QueueView;
  search: string;
  /** Sources matching the view and search; null until the first page answered. */
  rowCount: number | null;
  /** Loaded pages by page number; only pages near the visible rows are kept. */
  pages: Readonly<Record<number, readonly SourceRow[]>>;
  /** Bumped whenever the view or search changes: answers to older requests are dropped. */
  queueGeneration: number;
  queueError: string | null;
  setView(view: QueueView): void;
  setSearch(search: string): void;
  /**
   * The virtualizer shows rows start..end: load their pages, forget far ones. Called on every scroll that
   * changes the range, so it changes the store only when a page is dropped (no render per scroll).
   */
  showRows(start: number, end: number): void;
  /** Many jobs changed: fetch the pages in view again (what is shown stays until they answer). */
  refetchPages(): void;
  /** One job changed: patch it in place, or refetch when it joined or left the view. */
  patchJob(job: JobView): void;
}

const pageOf = (row: number) => Math.floor(row / PAGE_SIZE);

export const createQueueSlice: SliceMaker<QueueSlice> = (bridge) => (set, get) => {
  const inFlight = new Set<string>();
  /** Pages holding only their first rows (the first answer of a list): still to be fetched whole. */
  const partial = new Set<number>();
  let refetchTimer: ReturnType<typeof setTimeout> | null = null;
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
    // Nothing known yet (a fresh list): its first rows first, the whole page right after.
    const limit = page === 0 && get().rowCount === null ? FIRST_ROWS : PAGE_SIZE;
    const key = `${gen}:${page}:${limit}`;
    if (inFlight.has(key) || (!force && get().pages[page] && !partial.has(page))) return;
    inFlight.add(key);
    try {
      const { view, search } = get();
      const answer = await bridge.listSources({
        filter: filterFor(view, search),
        offset: page * PAGE_SIZE,
        limit,
      });
      if (get().queueGeneration !== gen) return;
      const firstAnswer = get().rowCount === null;
      if (limit === PAGE_SIZE) partial.delete(page);
      else if (get().rowCount !== null && !partial.has(page))
        return; // the whole page came first: keep it
      else if (answer.sources.length === limit) partial.add(page);
      set((s) => ({
        rowCount: answer.total,
        pages: { ...s.pages, [page]: answer.sources },
        queueError: null,
      }));
      // Only now is the list's length known: the pages around the view (this one whole) can be asked for.
      if (firstAnswer) for (const p of wantedPages()) void load(p, false);
    } catch (e) {
      if (get().queueGeneration === gen) set({ queueError: e instanceof Error ? e.message : String(e) });
    } finally {
      inFlight.delete(key);
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
    partial.clear();
    visibleRows = { start: 0, end: PAGE_SIZE - 1 };
    set((s) => ({
      ...patch,
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
      const kept = keepNear(get().pages);
      if (kept !== get().pages) set({ pages: kept });
      const pages = wantedPages();
      if (pages.length === 0) pages.push(0);
      for (const p of pages) void load(p, true);
    },
    patchJob(job) {
      const { pages, view } = get();
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
        if (stateInView(view, job.state)) return;
        break;
      }
      // Not shown and not meant to be: nothing to do.
      if (!found && !stateInView(view, job.state)) return;
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
