import type { ContractError } from '../../../shared/contract/errors';
import type { Settings, SettingsPatch } from '../../../shared/contract/settings';
import { asError } from './errors';
import type { SliceMaker } from './types';

export interface SettingsSlice {
  settings: Settings | null;
  settingsError: ContractError | null;
  setSettingsValue(settings: Settings): void;
  loadSettings(): Promise<void>;
  /** Saves a change; answers the error (in words, with the field at fault) or null. */
  saveSettings(patch: SettingsPatch): Promise<ContractError | null>;
}

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
