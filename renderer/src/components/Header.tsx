import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatCount, formatCredits, formatEta, formatSpeed, plural } from '../format';
import { useApp } from '../store';
import { headerNumbers } from '../store/derived';

/** Brand, Add, and the queue at a glance: jobs left, speed, time left, credits committed vs the service's balance. */
export function Header() {
  const n = useApp(useShallow((s) => headerNumbers(s.totals)));
  const paused = useApp((s) => s.totals?.paused ?? null);
  const openAddSheet = useApp((s) => s.openAddSheet);
  const pauseQueue = useApp((s) => s.pauseQueue);
  const resumeQueue = useApp((s) => s.resumeQueue);

  // The window's title tells how much is left, for a glance at the taskbar or the tab.
  useEffect(() => {
    const left = `${formatCount(n.left)} left${paused ? ', paused' : ''}`;
    document.title = n.left > 0 ? `${left} · Dubdesk` : 'Dubdesk';
  }, [n.left, paused]);

  return (
    <header className="app-header">
      <div className="brand" aria-label="Dubdesk">
        <span className="brand-mark" aria-hidden="true">
          ◖◗
        </span>
        Dubdesk
      </div>
      <button type="button" className="primary" onClick={openAddSheet} aria-keyshortcuts="Control+O Meta+O">
        + Add files
      </button>
      {paused ? (
        <button type="button" onClick={() => void resumeQueue()}>
          <span aria-hidden="true">▶ </span>Resume queue
        </button>
      ) : (
        <button type="button" onClick={() => void pauseQueue()}>
          <span aria-hidden="true">❚❚ </span>Pause queue
        </button>
      )}
      <dl className="header-stats" aria-label="Queue totals">
        <div>
          <dt>Left</dt>
          <dd className="num">{plural(n.left, 'job')}</dd>
        </div>
        <div>
          <dt>Speed</dt>
          <dd className="num w-speed">{n.bytesPerSecond ? formatSpeed(n.bytesPerSecond) : '—'}</dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd className="num w-eta">
            {paused && n.left > 0
              ? 'paused'
              : n.etaSeconds !== null && n.left > 0
                ? formatEta(n.etaSeconds)
                : '—'}
          </dd>
        </div>
        <div>
          <dt>
            Credits<span className="dt-more"> committed / balance</span>
          </dt>
          <dd className="num" data-testid="header-credits">
            {formatCredits(n.committed)} / {n.balance === null ? '—' : formatCredits(n.balance)}
            {n.short > 0 && <strong className="over-text"> · short by {formatCredits(n.short)}</strong>}
          </dd>
        </div>
      </dl>
    </header>
  );
}
