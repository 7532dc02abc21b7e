import type { SliceMaker, UiSlice } from './types';

const NOTICE_MS = 6000;
let nextNotice = 1;

export const createUiSlice: SliceMaker<UiSlice> = () => (set, get) => ({
  screen: 'queue',
  addOpen: false,
  focusBatch: null,
  openJobId: null,
  notices: [],
  confirmRequest: null,
  resumedDismissed: false,
  keyEntryRequested: false,
  setScreen: (screen) => set({ screen }),
  setAddOpen: (addOpen) => set({ addOpen }),
  setFocusBatch: (focusBatch) => set({ focusBatch }),
  openJob: (openJobId) => set({ openJobId }),
  notify(kind, text) {
    const id = nextNotice++;
    set((s) => ({ notices: [...s.notices.slice(-3), { id, kind, text }] }));
    setTimeout(() => get().dismissNotice(id), NOTICE_MS);
  },
  dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  confirm(request) {
    get().confirmRequest?.resolve(false);
    return new Promise<boolean>((resolve) => set({ confirmRequest: { ...request, resolve } }));
  },
  answerConfirm(ok) {
    const request = get().confirmRequest;
    set({ confirmRequest: null });
    request?.resolve(ok);
  },
  dismissResumed: () => set({ resumedDismissed: true }),
  requestKeyEntry: () => set({ screen: 'settings', keyEntryRequested: true }),
  keyEntryShown: () => set({ keyEntryRequested: false }),
});
