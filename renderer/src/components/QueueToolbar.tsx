import { useEffect, useState } from 'react';
import { formatCount } from '../format';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store';
import { selectionActions } from '../store/selection';
import { DownloadAll } from './DownloadAll';
import type { BulkAction } from '../store/types';
import { MoveButtons } from './MoveButtons';
import { WhenDoneMenu } from './WhenDoneMenu';

const SEARCH_DELAY_MS = 250;

/**
 * Filename search, then either the selection's bulk actions (while rows are selected) or the whole
 * queue's (when done, retry failed, clear done): one row of controls at any width. When done lives here,
 * not in the header: there it made the header two lines tall at 1280 px once the balance was known, and
 * the queue jumped a row under the pointer as it arrived.
 */
export function QueueToolbar() {
  const search = useApp((s) => s.search);
  const setSearch = useApp((s) => s.setSearch);
  // Ctrl+A over rows not all loaded: every row of the view.
  const selectedRows = useApp((s) => (s.allOf ? (s.rowCount ?? 0) : Object.keys(s.selected).length));
  const failed = useApp((s) => s.totals?.counts.failed ?? 0);
  const completed = useApp((s) => s.totals?.counts.completed ?? 0);
  const bulk = useApp((s) => s.bulk);
  // Only what would change something: a finished job offers no Retry, Pause, Resume or Cancel.
  const actions = useApp(useShallow(selectionActions));
  const clearSelection = useApp((s) => s.clearSelection);
  const retryAllFailed = useApp((s) => s.retryAllFailed);
  const clearDone = useApp((s) => s.clearDone);
  const [text, setText] = useState(search);

  useEffect(() => {
    const t = setTimeout(() => setSearch(text), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text, setSearch]);

  const action = (a: BulkAction, label: string) =>
    actions.includes(a) && (
      <button type="button" onClick={() => void bulk(a)}>
        {label}
      </button>
    );

  return (
    <div className="queue-toolbar">
      <input
        id="queue-search"
        type="search"
        className="search"
        placeholder="Search files…"
        aria-label="Search files by name"
        aria-keyshortcuts="Control+F Meta+F"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {selectedRows > 0 ? (
        <div className="toolbar-group" role="group" aria-label="Selected rows">
          <span className="selection-count num">{formatCount(selectedRows)} selected</span>
          {action('retry', 'Retry')}
          {action('pause', 'Pause')}
          {action('resume', 'Resume')}
          {action('cancel', 'Cancel…')}
          <MoveButtons />
          <DownloadAll />
          {actions.length === 0 && <span className="hint">All done: nothing to retry, pause or cancel.</span>}
          <button type="button" className="link" onClick={clearSelection}>
            Deselect
          </button>
        </div>
      ) : (
        <div className="toolbar-group end">
          <WhenDoneMenu />
          <button type="button" disabled={failed === 0} onClick={() => void retryAllFailed()}>
            Retry failed ({formatCount(failed)})
          </button>
          <button type="button" disabled={completed === 0} onClick={() => void clearDone()}>
            Clear done…
          </button>
        </div>
      )}
    </div>
  );
}
