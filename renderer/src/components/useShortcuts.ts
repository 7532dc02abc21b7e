import { useEffect } from 'react';
import type { AppStore } from '../store';

/** Ctrl/Cmd+O adds files; Ctrl/Cmd+F searches the queue. */
export function useShortcuts(store: AppStore): void {
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      const s = store.getState();
      if (key === 'o') {
        e.preventDefault();
        s.openAddSheet();
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
