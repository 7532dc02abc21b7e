// First: its requests leave before the rest of the bundle is evaluated.
import './first-calls';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { getBridge } from './bridge/index';
import { createAppStore } from './store';
import { connect } from './store/connect';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  try {
    const bridge = getBridge();
    const store = createAppStore(bridge);
    // The first page, totals and settings are asked for now, before React's first render (which takes about
    // as long as they do), not from an effect after it; nor do they wait for the media token (bridge.ts).
    connect(store, bridge);
    createRoot(root).render(
      <StrictMode>
        <App bridge={bridge} store={store} />
      </StrictMode>,
    );
  } catch (e) {
    root.textContent = `Dubdesk could not start: ${e instanceof Error ? e.message : String(e)}`;
  }
}
