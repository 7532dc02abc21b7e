import type { FaceBridge } from '../../../shared/face';
import { createWebBridge } from './web';
import { serveBack, serveLost } from './serve-link';
import { sessionEnded } from './web-session';

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
 * client of `dubdesk serve`, which this browser's session cookie authenticates (see web-session.ts).
 */
export function getBridge(): FaceBridge {
  if (bridge) return bridge;
  if (window.dubdesk) {
    bridge = window.dubdesk;
    return bridge;
  }
  // A session refused later (serve stopped or restarted) turns the page into the one about a new address;
  // a serve that does not answer at all puts a banner over the app (ServeGone.tsx).
  const web = createWebBridge({ onSessionRefused: sessionEnded, link: { lost: serveLost, back: serveBack } });
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
