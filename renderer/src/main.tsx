import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { getBridge } from './bridge/index';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  let bridge;
  try {
    bridge = getBridge();
  } catch (e) {
    root.textContent = e instanceof Error ? e.message : String(e);
  }
  if (bridge) {
    createRoot(root).render(
      <StrictMode>
        <App bridge={bridge} />
      </StrictMode>,
    );
  }
}
