import type { Preset, PresetOptionsInput } from '../../../shared/contract/presets';
import type { MoveTarget } from '../../../shared/contract/queue';
import { plural } from '../format';
import { asError } from './errors';
import type { SliceMaker, SteeringSlice } from './types';

/** Presets, the queue's order, what happens when the queue is done, and what was spent. */
export const createSteeringSlice: SliceMaker<SteeringSlice> = (bridge) => (set, get) => ({
  presets: [],
  whenDone: null,
  spending: null,
  spendingError: null,
  setPresets: (presets: readonly Preset[]) => set({ presets }),
  setWhenDoneState: (whenDone) => set({ whenDone }),
  async loadPresets() {
    try {
      set({ presets: (await bridge.listPresets()).presets });
    } catch {
      /* an older engine, or offline: the picker stays empty */
    }
  },
  async savePreset(name: string, options: PresetOptionsInput) {
    try {
      await bridge.savePreset({ name, options });
      get().notify('info', `Saved preset “${name}”.`);
      await get().loadPresets();
      return null;
    } catch (e) {
      return asError(e);
    }
  },
  async deletePreset(name: string) {
    try {
      await bridge.deletePreset({ name });
      await get().loadPresets();
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
  async loadWhenDone() {
    try {
      set({ whenDone: await bridge.whenDone() });
    } catch {
      /* shown as "nothing" */
    }
  },
  async chooseWhenDone(choice) {
    try {
      set({ whenDone: await bridge.setWhenDone(choice) });
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
  async cancelWhenDone() {
    set({ whenDone: await bridge.cancelWhenDone() });
  },
  async loadSpending() {
    try {
      set({ spending: await bridge.spending({ since: null }), spendingError: null });
    } catch (e) {
      set({ spendingError: asError(e) });
    }
  },
  async moveJobs(ids: readonly number[], to: MoveTarget) {
    if (ids.length === 0) return;
    try {
      const r = await bridge.moveJobs({ ids: [...ids], to });
      if (r.moved.length === 0 && r.stayed.length)
        get().notify(
          'info',
          `Already being sent or finished: ${plural(r.stayed.length, 'job')} stayed where they were.`,
        );
    } catch (e) {
      get().notify('error', asError(e).message);
    }
  },
});
