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
let settled = true;

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
  settled = false;
  ready = web.ready.then(() => {
    settled = true;
  });
  bridge = web;
  return bridge;
}

/**
 * Resolves once the bridge is fully set up (web: media URLs carry their token). Only media URLs need it:
 * the page renders and lists the queue meanwhile (see useBridgeReady).
 */
export function bridgeReady(): Promise<void> {
  getBridge();
  return ready;
}

/** Whether bridgeReady() has resolved (so a component needs no effect to know it). */
export function bridgeIsReady(): boolean {
  getBridge();
  return settled;
}
