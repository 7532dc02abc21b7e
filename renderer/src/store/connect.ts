import type { EngineEvent } from '../../../shared/contract/events';
import type { FaceBridge } from '../../../shared/face';
import { onPageShown, pageHidden } from '../page-visibility';
import type { AppStore } from './index';

/** Everything shown, fetched again: at start, and whenever events were missed. */
export async function refreshAll(store: AppStore): Promise<void> {
  const s = store.getState();
  s.refetchPages();
  await Promise.all([
    s.refreshTotals(),
    s.loadSettings(),
    s.loadLanguages(),
    s.loadFolders(),
    s.loadPresets(),
    s.loadWhenDone(),
  ]);
}

/**
 * Follows the engine's events into the store: job events patch rows in place, `jobs-changed` refetches the
 * pages in view, totals drive the header and sidebar. Everything is fetched once the events flow (at start,
 * and after each break, whose new subscription numbers its events from 1 again), and when a gap in `seq`
 * says events were missed. Returns the function that stops following.
 */
export function connect(store: AppStore, bridge: FaceBridge): () => void {
  let lastSeq = 0;
  let refreshWhenShown = false;
  const stopShown = onPageShown(() => {
    if (!refreshWhenShown) return;
    refreshWhenShown = false;
    void refreshAll(store);
  });
  const onEvent = (event: EngineEvent) => {
    const s = store.getState();
    const missed = lastSeq > 0 && event.seq !== lastSeq + 1;
    lastSeq = event.seq;
    if (missed) {
      // Hidden: everything is fetched again once, when the window is shown.
      if (pageHidden()) refreshWhenShown = true;
      else void refreshAll(store);
      return;
    }
    switch (event.type) {
      case 'job':
        s.patchJob(event.job);
        break;
      case 'jobs-changed':
        s.refetchPages();
        if (event.removed.length && s.openJobId !== null && event.removed.includes(s.openJobId))
          s.openJob(null);
        break;
      case 'totals':
        s.setTotals(event.totals);
        break;
      case 'settings':
        s.setSettingsValue(event.settings);
        break;
      case 'watch-folder':
        s.upsertFolder(event.folder);
        break;
      case 'watch-folder-removed':
        s.dropFolder(event.id);
        break;
      case 'presets':
        s.setPresets(event.presets);
        break;
      case 'when-done':
        s.setWhenDoneState(event.state);
        break;
      case 'batch-done':
        s.notify(
          event.tally.failed ? 'error' : 'info',
          `Batch finished: ${event.tally.completed} done${event.tally.failed ? `, ${event.tally.failed} failed` : ''}.`,
        );
        break;
    }
  };
  let opens = 0;
  const stopEvents = bridge.subscribe(onEvent, () => {
    lastSeq = 0;
    opens += 1;
    // A stream opened again while hidden (a laptop woke): fetched once, when the window is shown.
    if (opens > 1 && pageHidden()) refreshWhenShown = true;
    else void refreshAll(store);
  });
  return () => {
    stopShown();
    stopEvents();
  };
}
