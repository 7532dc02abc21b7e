import { isTerminal, type ActionResult, type JobFilter, type JobView } from '../../../shared/contract/jobs';
import { asError } from './errors';
import { rowAt } from './rows';
import { filterFor } from './views';
import type { AppState, BulkAction, SelectionSlice, SliceMaker } from './types';
import { thenSay } from '../../../shared/format';
import { plural } from '../format';

const VERB: Record<
  BulkAction,
  { done: string; method: 'retryJobs' | 'cancelJobs' | 'pauseJobs' | 'resumeJobs' | 'clearJobs' }
> = {
  retry: { done: 'queued again', method: 'retryJobs' },
  cancel: { done: 'canceled', method: 'cancelJobs' },
  pause: { done: 'paused', method: 'pauseJobs' },
  resume: { done: 'resumed', method: 'resumeJobs' },
  clear: { done: 'cleared from the list', method: 'clearJobs' },
};

/** The jobs an action can apply to, so the confirm counts what will really change. */
export function applicable(action: BulkAction, jobs: readonly JobView[]): JobView[] {
  switch (action) {
    case 'retry':
      return jobs.filter((j) => j.state === 'failed' || j.state === 'canceled');
    case 'cancel':
      return jobs.filter((j) => !isTerminal(j.state));
    case 'pause':
      return jobs.filter((j) => !isTerminal(j.state) && j.state !== 'paused');
    case 'resume':
      return jobs.filter((j) => j.state === 'paused');
    case 'clear':
      return jobs.filter((j) => isTerminal(j.state));
  }
}

/** Jobs of the selected rows, as loaded now (fresh states for the confirm's count). */
export function selectedJobsOf(s: Pick<AppState, 'selected' | 'pages'>): JobView[] {
  const ids = new Set(Object.values(s.selected).flat());
  const found: JobView[] = [];
  for (const rows of Object.values(s.pages))
    for (const row of rows) for (const j of row.jobs) if (ids.has(j.id)) found.push(j);
  return found;
}

/** The actions that would change something in the selection: the toolbar offers only these. */
export function selectionActions(s: Pick<AppState, 'selected' | 'pages'>): BulkAction[] {
  const jobs = selectedJobsOf(s);
  return (['retry', 'pause', 'resume', 'cancel'] as const).filter((a) => applicable(a, jobs).length > 0);
}

export const createSelectionSlice: SliceMaker<SelectionSlice> = (bridge) => (set, get) => {
  const selectedJobs = () => selectedJobsOf(get());

  /** An action on every row of the view (Ctrl+A over rows not all loaded): the engine applies the filter. */
  async function bulkAll(action: BulkAction, filter: JobFilter): Promise<ActionResult | null> {
    const rows = get().rowCount ?? 0;
    if (action === 'cancel' || action === 'clear') {
      const ok = await get().confirm({
        title: `${action === 'cancel' ? 'Cancel' : 'Clear'} the jobs of all ${plural(rows, 'row')}?`,
        body:
          action === 'cancel'
            ? 'Every unfinished job of the selected rows is canceled; finished files are kept. Dubs the service already started may still be charged.'
            : 'Every finished job of the selected rows leaves the list. No file is deleted.',
        confirmLabel: action === 'cancel' ? 'Cancel them' : 'Clear them',
        danger: action === 'cancel',
      });
      if (!ok) return null;
    }
    try {
      const result = await bridge[VERB[action].method]({ filter });
      get().notify('info', `${plural(result.changed.length, 'job')} ${VERB[action].done}.`);
      if (action === 'clear') set({ selected: {}, allOf: null, anchor: null });
      return result;
    } catch (e) {
      get().notify('error', asError(e).message);
      return null;
    }
  }

  return {
    selected: {},
    cursor: 0,
    cursorItem: null,
    allOf: null,
    anchor: null,
    selectRow(index, mode) {
      const { pages, anchor } = get();
      const row = rowAt(pages, index);
      if (!row) return;
      // Ctrl+A's "every row" ends with the next choice of rows; the rows loaded stay as they were.
      const selected = get().selected;
      if (get().allOf) set({ allOf: null });
      const entry = { [row.source]: row.jobs.map((j) => j.id) };
      if (mode === 'only') {
        set({ selected: entry, cursor: index, cursorItem: null, anchor: index });
      } else if (mode === 'toggle') {
        const next = selected[row.source]
          ? Object.fromEntries(Object.entries(selected).filter(([source]) => source !== row.source))
          : { ...selected, ...entry };
        set({ selected: next, cursor: index, cursorItem: null, anchor: index });
      } else {
        const from = Math.min(anchor ?? index, index);
        const to = Math.max(anchor ?? index, index);
        const next: Record<string, readonly number[]> = {};
        for (let i = from; i <= to; i++) {
          const r = rowAt(pages, i);
          if (r) next[r.source] = r.jobs.map((j) => j.id);
        }
        set({ selected: next, cursor: index, cursorItem: null });
      }
    },
    setCursor: (cursor, item = null) => set({ cursor: Math.max(0, cursor), cursorItem: item }),
    selectAll() {
      const { pages, rowCount, view, search } = get();
      const selected: Record<string, readonly number[]> = {};
      for (const rows of Object.values(pages))
        for (const r of rows) selected[r.source] = r.jobs.map((j) => j.id);
      const loaded = Object.keys(selected).length;
      const paused = get().totals?.paused != null;
      const allOf = rowCount !== null && loaded < rowCount ? filterFor(view, search, paused) : null;
      set({ selected, allOf, anchor: null });
    },
    clearSelection: () => set({ selected: {}, allOf: null, anchor: null }),
    async bulk(action, jobs) {
      const all = jobs ? null : get().allOf;
      if (all) return bulkAll(action, all);
      const targets = applicable(action, jobs ?? selectedJobs());
      if (targets.length === 0) {
        get().notify('info', `Nothing to ${action}: no selected job is in a state it applies to.`);
        return null;
      }
      const running = targets.filter((j) => j.state !== 'queued' && j.state !== 'paused').length;
      if (action === 'cancel') {
        // The service cannot stop a dub it started, and charges when it completes.
        const started = targets.filter((j) => j.remoteId !== null && j.creditsCharged === null).length;
        const charge =
          started > 0
            ? ` The service already started ${plural(started, 'dub')} and cannot stop ${started === 1 ? 'it' : 'them'}: it may still charge for ${started === 1 ? 'it' : 'them'} (the job's history will say).`
            : '';
        const ok = await get().confirm({
          title: `Cancel ${plural(targets.length, 'job')}?`,
          body:
            (running > 0
              ? `${plural(running, 'job is', 'jobs are')} working now; their progress is dropped. Finished files are kept.`
              : 'They will not be dubbed. Finished files are kept.') + charge,
          confirmLabel: `Cancel ${plural(targets.length, 'job')}`,
          danger: true,
        });
        if (!ok) return null;
      }
      if (action === 'clear') {
        const ok = await get().confirm({
          title: `Clear ${plural(targets.length, 'finished job')}?`,
          body: 'They leave the list. No file is deleted, and nothing is dubbed again.',
          confirmLabel: `Clear ${plural(targets.length, 'job')}`,
          danger: false,
        });
        if (!ok) return null;
      }
      try {
        const result = await bridge[VERB[action].method]({ ids: targets.map((j) => j.id) });
        const skipped = result.skipped.length
          ? `; ${plural(result.skipped.length, 'job')} skipped: ${result.skipped[0]?.error.message ?? ''}`
          : '';
        get().notify('info', `${plural(result.changed.length, 'job')} ${VERB[action].done}${skipped}.`);
        if (action === 'clear') set({ selected: {}, allOf: null, anchor: null });
        return result;
      } catch (e) {
        const err = asError(e);
        get().notify('error', err.remedy ? thenSay(err.message, err.remedy) : err.message);
        return null;
      }
    },
    async retryAllFailed() {
      try {
        const result = await bridge.retryJobs({ filter: { states: ['failed'] } });
        get().notify('info', `${plural(result.changed.length, 'failed job')} queued again.`);
      } catch (e) {
        get().notify('error', asError(e).message);
      }
    },
    async clearDone() {
      const count = get().totals?.counts.completed ?? 0;
      if (count === 0) return;
      const ok = await get().confirm({
        title: `Clear ${plural(count, 'done job')}?`,
        body: 'They leave the list. Their files stay where they are, and nothing is dubbed again.',
        confirmLabel: `Clear ${plural(count, 'job')}`,
        danger: false,
      });
      if (!ok) return;
      try {
        const result = await bridge.clearJobs({ filter: { states: ['completed'] } });
        get().notify('info', `${plural(result.changed.length, 'job')} cleared from the list.`);
        set({ selected: {}, anchor: null });
      } catch (e) {
        get().notify('error', asError(e).message);
      }
    },
  };
};
