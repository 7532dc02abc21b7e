import { useEffect } from 'react';
import type { FaceBridge } from '../../../shared/face';
import type { AppStore } from '../store';

/**
 * What the desktop shell asks of the page (web mode has no such events): files to add (Open with, a second
 * launch, the dock), a job to show (its notification was clicked), Find and Preferences from the menu.
 */
export function useShellEvents(store: AppStore, bridge: FaceBridge): void {
  useEffect(() => {
    if (!bridge.onShellEvent) return;
    return bridge.onShellEvent((event) => {
      const s = store.getState();
      switch (event.type) {
        case 'open-files':
          s.openAddSheet();
          s.addInputs(event.paths);
          break;
        case 'show-job':
          s.setScreen('queue');
          s.openJob(event.id);
          break;
        case 'command':
          if (event.command === 'preferences') s.setScreen('settings');
          else {
            s.setScreen('queue');
            setTimeout(() => document.getElementById('queue-search')?.focus(), 0);
          }
          break;
      }
    });
  }, [store, bridge]);
}
