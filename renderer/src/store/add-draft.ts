import { plural } from '../../../shared/format';
import { asError } from './errors';
import { batchRequest, presetFromSettings } from './preset';
import type { SliceMaker, AddDraftSlice } from './types';

const ESTIMATE_DELAY_MS = 350;

export const createAddDraftSlice: SliceMaker<AddDraftSlice> = (bridge) => (set, get) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let asked = 0;
  /** Counts fresh drafts: files still being sent when the user starts over are not added to the new one. */
  let draft = 0;

  function scheduleEstimate() {
    if (timer) clearTimeout(timer);
    const { inputs, preset } = get();
    if (inputs.length === 0 || preset.to.length === 0) {
      asked++;
      set({ estimate: null, estimating: false, estimateError: null });
      return;
    }
    set({ estimating: true, addError: null });
    timer = setTimeout(() => {
      timer = null;
      void runEstimate();
    }, ESTIMATE_DELAY_MS);
  }

  async function runEstimate() {
    const ask = ++asked;
    const { inputs, preset, languages } = get();
    const request = batchRequest(inputs, preset, languages);
    if (request.to.length === 0) {
      set({ estimate: null, estimating: false, estimateError: null });
      return;
    }
    try {
      const estimate = await bridge.estimate(request);
      if (ask === asked) set({ estimate, estimating: false, estimateError: null });
    } catch (e) {
      if (ask === asked) set({ estimate: null, estimating: false, estimateError: asError(e) });
    }
  }

  return {
    inputs: [],
    preset: presetFromSettings(null),
    again: false,
    staging: null,
    stagingError: null,
    estimate: null,
    estimating: false,
    estimateError: null,
    adding: false,
    addError: null,
    startDraft() {
      asked++;
      draft++;
      set({
        inputs: [],
        preset: presetFromSettings(get().settings, true),
        again: false,
        staging: null,
        stagingError: null,
        estimate: null,
        estimating: false,
        estimateError: null,
        addError: null,
      });
    },
    openAddSheet() {
      const s = get();
      if (!s.addOpen && s.inputs.length === 0 && s.staging === null) s.startDraft();
      s.setAddOpen(true);
    },
    closeAddSheet() {
      const s = get();
      if (!s.addOpen) return;
      s.setAddOpen(false);
      const kept = s.inputs.length;
      if (kept > 0 || s.staging)
        s.notify(
          'info',
          `${kept ? plural(kept, 'file') : 'The files being sent'} kept for the next Add: “+ Add files” brings ${kept === 1 ? 'it' : 'them'} back.`,
        );
    },
    addInputs(paths) {
      const known = new Set(get().inputs);
      const fresh = paths.map((p) => p.trim()).filter((p) => p && !known.has(p) && known.add(p));
      if (fresh.length === 0) return;
      set((s) => ({ inputs: [...s.inputs, ...fresh] }));
      scheduleEstimate();
    },
    removeInput(path) {
      set((s) => ({ inputs: s.inputs.filter((p) => p !== path) }));
      scheduleEstimate();
    },
    setPreset(patch) {
      set((s) => ({ preset: { ...s.preset, ...patch } }));
      scheduleEstimate();
    },
    setAgain: (again) => set({ again }),
    async stageFiles(files) {
      if (files.length === 0) return;
      const total = files.reduce((n, f) => n + f.size, 0);
      const mine = draft;
      set({ staging: { sent: 0, total }, stagingError: null });
      try {
        const paths = await bridge.stageFiles(files, (sent, all) => {
          if (mine === draft) set({ staging: { sent, total: all } });
        });
        if (mine !== draft) return;
        set({ staging: null });
        get().addInputs(paths);
      } catch (e) {
        if (mine === draft) set({ staging: null, stagingError: asError(e) });
      }
    },
    async submitAdd(force) {
      const { inputs, preset, languages, again } = get();
      set({ adding: true, addError: null });
      try {
        const result = await bridge.add({ ...batchRequest(inputs, preset, languages), force, again });
        set({ adding: false, inputs: [] });
        // The engine remembers the batch's languages (Recent, "Same as last batch"); its folder is this face's
        // "Save to" next time. Then the settings are read again for both.
        await bridge.setSettings({ lastOutDir: preset.outDir.trim() }).catch(() => null);
        void get().loadSettings();
        return result;
      } catch (e) {
        set({ adding: false, addError: asError(e) });
        return null;
      }
    },
  };
};
