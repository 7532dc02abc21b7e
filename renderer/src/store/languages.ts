import type { Language, Languages } from '../../../shared/contract/account';
import { asError } from './errors';
import type { SliceMaker } from './types';

export interface LanguagesSlice {
  languages: readonly Language[];
  languagesFrom: Languages['from'] | null;
  loadLanguages(): Promise<void>;
}

export const createLanguagesSlice: SliceMaker<LanguagesSlice> = (bridge) => (set, get) => ({
  languages: [],
  languagesFrom: null,
  async loadLanguages() {
    try {
      const answer = await bridge.languages();
      set({ languages: answer.languages, languagesFrom: answer.from });
    } catch (e) {
      get().notify('error', `The language list could not be read: ${asError(e).message}`);
    }
  },
});
