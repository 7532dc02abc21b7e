import type { SliceMaker } from './types';

export type Screen = 'queue' | 'watch' | 'settings';

export interface Notice {
  id: number;
  kind: 'info' | 'error';
  text: string;
}

/** A question the user must answer before a destructive or costly action goes ahead. */
export interface ConfirmRequest {
  title: string;
  body: string;
  /** The button that goes ahead, worded for the action ("Cancel 12 jobs"). */
  confirmLabel: string;
  danger: boolean;
  resolve(ok: boolean): void;
}

export interface UiSlice {
  screen: Screen;
  addOpen: boolean;
  /** The job shown in the side panel. */
  openJobId: number | null;
  notices: readonly Notice[];
  confirmRequest: ConfirmRequest | null;
  /** The "N jobs resumed" banner was dismissed (nothing else happens). */
  resumedDismissed: boolean;
  setScreen(screen: Screen): void;
  setAddOpen(open: boolean): void;
  openJob(id: number | null): void;
  notify(kind: Notice['kind'], text: string): void;
  dismissNotice(id: number): void;
  confirm(request: Omit<ConfirmRequest, 'resolve'>): Promise<boolean>;
  answerConfirm(ok: boolean): void;
  dismissResumed(): void;
}

const NOTICE_MS = 6000;
let nextNotice = 1;

export const createUiSlice: SliceMaker<UiSlice> = () => (set, get) => ({
  screen: 'queue',
  addOpen: false,
  openJobId: null,
  notices: [],
  confirmRequest: null,
  resumedDismissed: false,
  setScreen: (screen) => set({ screen }),
  setAddOpen: (addOpen) => set({ addOpen }),
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
});
