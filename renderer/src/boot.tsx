/**
 * The app: React, the store, the contract's schemas and every screen (most of the renderer's code), loaded
 * by main.tsx once the page's first calls have left.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { getBridge } from './bridge/index';
import { onSessionChanged, pageSession, tradeCodesPastedLater } from './bridge/web-session';
import { NeedsLink } from './screens/NeedsLink';
import { createAppStore } from './store';
import { connect } from './store/connect';

export function boot(root: HTMLElement): void {
  const view = createRoot(root);
  try {
    if (!window.dubdesk) {
      // A browser's page: when its session ends, or a code pasted later was used, it says how to get an address.
      tradeCodesPastedLater();
      onSessionChanged((now) => {
        if (now !== 'signed-in') view.render(<NeedsLink why={now} />);
      });
    }
    // In a browser without a session of `dubdesk serve`: the page about getting an address, not the app.
    const session = window.dubdesk ? 'signed-in' : pageSession();
    if (session !== 'signed-in') view.render(<NeedsLink why={session} />);
    else {
      const bridge = getBridge();
      const store = createAppStore(bridge);
      // The first page, totals and settings are asked for now, before React's first render (which takes about
      // as long as they do), not from an effect after it; nor do they wait for the media token (bridge.ts).
      connect(store, bridge);
      view.render(
        <StrictMode>
          <App bridge={bridge} store={store} />
        </StrictMode>,
      );
    }
  } catch (e) {
    root.textContent = `Dubdesk could not start: ${e instanceof Error ? e.message : String(e)}`;
  }
}
