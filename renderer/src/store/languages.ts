import { asError } from './errors';
import type { SliceMaker, LanguagesSlice } from './types';

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
