import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { bridgeReady, getBridge } from './bridge/index';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  bridgeReady().then(
    () =>
      createRoot(root).render(
        <StrictMode>
          <App bridge={getBridge()} />
        </StrictMode>,
      ),
    (e: unknown) => {
      root.textContent = `Dubdesk could not start: ${e instanceof Error ? e.message : String(e)}`;
    },
  );
}
