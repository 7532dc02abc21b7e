import { asError } from './errors';
import type { SliceMaker, TotalsSlice } from './types';

export const createTotalsSlice: SliceMaker<TotalsSlice> = (bridge) => (set, get) => ({
  totals: null,
  setTotals: (totals) => set({ totals }),
  async refreshTotals() {
    try {
      set({ totals: await bridge.totals() });
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
  async pauseQueue() {
    try {
      set({ totals: await bridge.pauseQueue() });
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
  async resumeQueue() {
    try {
      set({ totals: await bridge.resumeQueue() });
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
});
