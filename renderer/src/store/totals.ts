import { asError } from './errors';
import type { SliceMaker, TotalsSlice } from './types';

export const createTotalsSlice: SliceMaker<TotalsSlice> = (bridge) => (set, get) => ({
  totals: null,
  setTotals(totals) {
    const wasPaused = get().totals?.paused != null;
    set({ totals });
    // The Paused view lists every open job while the queue is paused: it changes with the pause.
    if (wasPaused !== (totals.paused !== null) && get().view === 'paused') get().refetchPages();
  },
  async refreshTotals() {
    try {
      set({ totals: await bridge.totals() });
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
  async pauseQueue() {
    try {
      get().setTotals(await bridge.pauseQueue());
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
  async resumeQueue() {
    try {
      get().setTotals(await bridge.resumeQueue());
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
});
