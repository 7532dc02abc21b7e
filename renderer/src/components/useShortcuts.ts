import { useEffect } from 'react';
import type { AppStore } from '../store';

/** Where Ctrl+A keeps its own meaning: text being edited. */
function editing(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || el.matches('input, textarea, select');
}

/** Ctrl/Cmd+O adds files; Ctrl/Cmd+F searches the queue; Ctrl/Cmd+A selects its rows (not the page's text). */
export function useShortcuts(store: AppStore): void {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      const s = store.getState();
      if (key === 'o') {
        e.preventDefault();
        s.openAddSheet();
      } else if (key === 'a' && !s.addOpen && s.screen === 'queue' && !editing(document.activeElement)) {
        if (document.querySelector('dialog[open]')) return;
        e.preventDefault();
        s.selectAll();
      } else if (key === 'f' && !s.addOpen) {
        e.preventDefault();
        s.setScreen('queue');
        setTimeout(() => document.getElementById('queue-search')?.focus(), 0);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
