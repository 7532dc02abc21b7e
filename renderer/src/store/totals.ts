import type { QueueTotals } from '../../../shared/contract/queue';
import { asError } from './errors';
import type { SliceMaker } from './types';

export interface TotalsSlice {
  totals: QueueTotals | null;
  setTotals(totals: QueueTotals): void;
  refreshTotals(): Promise<void>;
  pauseQueue(): Promise<void>;
  resumeQueue(): Promise<void>;
}

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
