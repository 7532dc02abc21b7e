import { formatCount } from '../format';
import { useApp } from '../store';
import { viewCount } from '../store/derived';
import { QUEUE_VIEWS, VIEW_LABELS, type QueueView } from '../store/views';

function ViewLink({ view }: { view: QueueView }) {
  const count = useApp((s) => viewCount(s.totals, view));
  const current = useApp((s) => s.screen === 'queue' && s.view === view);
  const setView = useApp((s) => s.setView);
  const setScreen = useApp((s) => s.setScreen);
  const clearSelection = useApp((s) => s.clearSelection);
  return (
    <li>
      <button
        type="button"
        className={`nav-item ${current ? 'current' : ''} ${count === 0 ? 'zero' : ''}`}
        aria-current={current ? 'page' : undefined}
        onClick={() => {
          setScreen('queue');
          clearSelection();
          setView(view);
        }}
      >
        <span className={`nav-dot dot-${view}`} aria-hidden="true" />
        <span className="nav-label">{VIEW_LABELS[view]}</span>
        <span className="nav-count num">{count === null ? '' : formatCount(count)}</span>
      </button>
    </li>
  );
}

function WatchLink() {
  const current = useApp((s) => s.screen === 'watch');
  const folders = useApp((s) => s.folders);
  const setScreen = useApp((s) => s.setScreen);
  const unavailable = folders?.filter((f) => f.status === 'unavailable').length ?? 0;
  const approval = folders?.filter((f) => f.counts.awaitingApproval > 0).length ?? 0;
  return (
    <button
      type="button"
      className={`nav-item ${current ? 'current' : ''}`}
      aria-current={current ? 'page' : undefined}
      onClick={() => setScreen('watch')}
    >
      <span className="nav-icon" aria-hidden="true">
        ▤
      </span>
      <span className="nav-label">Watched folders</span>
      <span className="nav-count num">
        {approval + unavailable > 0 ? (
          <span className="nav-alert" title="A folder needs a look">
            ⚠ {approval + unavailable}
          </span>
        ) : (
          formatCount(folders?.length ?? 0)
        )}
      </span>
    </button>
  );
}

function SpendingLink() {
  const current = useApp((s) => s.screen === 'spending');
  const setScreen = useApp((s) => s.setScreen);
  return (
    <button
      type="button"
      className={`nav-item ${current ? 'current' : ''}`}
      aria-current={current ? 'page' : undefined}
      onClick={() => setScreen('spending')}
    >
      <span className="nav-icon" aria-hidden="true">
        ¤
      </span>
      <span className="nav-label">Spending</span>
    </button>
  );
}

/** The queue's states with live counts (zero counts dimmed, never hidden), watched folders, settings. */
export function Sidebar() {
  const settingsCurrent = useApp((s) => s.screen === 'settings');
  const setScreen = useApp((s) => s.setScreen);
  return (
    <nav className="sidebar" aria-label="Dubdesk">
      <h2 className="nav-heading">Queue</h2>
      <ul>
        {QUEUE_VIEWS.map((v) => (
          <ViewLink key={v} view={v} />
        ))}
      </ul>
      <h2 className="nav-heading">Automation</h2>
      <WatchLink />
      <SpendingLink />
      <div className="nav-spacer" />
      <button
        type="button"
        className={`nav-item ${settingsCurrent ? 'current' : ''}`}
        aria-current={settingsCurrent ? 'page' : undefined}
        onClick={() => setScreen('settings')}
      >
        <span className="nav-icon" aria-hidden="true">
          ⚙
        </span>
        <span className="nav-label">Settings</span>
      </button>
    </nav>
  );
}
