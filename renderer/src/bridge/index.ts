import type { FaceBridge } from '../../../shared/face';

declare global {
  interface Window {
    /** The Electron preload's bridge. */
    dubdesk?: FaceBridge;
  }
}

/**
 * The face this renderer runs in. Placeholder until web mode lands (the serve branch owns this file and
 * `web.ts`): only the Electron preload's bridge is known here.
 */
export function getBridge(): FaceBridge {
  if (window.dubdesk) return window.dubdesk;
  throw new Error('Dubdesk runs inside its desktop app or `dubdesk serve`; no bridge was found.');
}
