import type { FaceBridge } from '../../../shared/face';
import { createWebBridge } from './web';
import { tokenFromPage } from './web-token';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser. */
    dubdesk?: FaceBridge;
  }
}

let bridge: FaceBridge | null = null;
let ready: Promise<void> = Promise.resolve();

/**
 * The one FaceBridge of this page: Electron's `window.dubdesk` (its preload) when present, else the HTTP
 * client of `dubdesk serve`, with the token the address brought (see web-token.ts).
 */
export function getBridge(): FaceBridge {
  if (bridge) return bridge;
  if (window.dubdesk) {
    bridge = window.dubdesk;
    return bridge;
  }
  // Without a token every call answers `auth`, whose remedy says to open the address serve printed.
  const web = createWebBridge({ token: tokenFromPage() ?? '' });
  ready = web.ready;
  bridge = web;
  return bridge;
}

/** Resolves once the bridge is fully set up (web: media URLs carry their token); render after it. */
export function bridgeReady(): Promise<void> {
  getBridge();
  return ready;
}
