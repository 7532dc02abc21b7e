import { asError } from './errors';
import type { SliceMaker, SettingsSlice } from './types';

export const createSettingsSlice: SliceMaker<SettingsSlice> = (bridge) => (set) => ({
  settings: null,
  settingsError: null,
  setSettingsValue: (settings) => set({ settings }),
  async loadSettings() {
    try {
      set({ settings: await bridge.getSettings(), settingsError: null });
    } catch (e) {
      set({ settingsError: asError(e) });
    }
  },
  async saveSettings(patch) {
    try {
      set({ settings: await bridge.setSettings(patch) });
      return null;
    } catch (e) {
      return asError(e);
    }
  },
});
