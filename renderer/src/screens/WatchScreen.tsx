import { useState } from 'react';
import type { WatchCounts, WatchFolder } from '../../../shared/contract/watch';
import { languageName } from '../../../shared/languages';
import { ErrorText } from '../components/ErrorText';
import { WatchFiles } from '../components/WatchFiles';
import { WatchFolderForm } from '../components/WatchFolderForm';
import { useNow } from '../components/useNow';
import { formatAgo, formatCount, formatCredits } from '../format';
import { useApp, useBridge } from '../store';

const COUNTS: { key: keyof WatchCounts; label: string }[] = [
  { key: 'waiting', label: 'waiting' },
  { key: 'working', label: 'working' },
  { key: 'done', label: 'done' },
  { key: 'failed', label: 'failed' },
  { key: 'attention', label: 'need attention' },
  { key: 'awaitingApproval', label: 'await approval' },
];

function Status({ folder }: { folder: WatchFolder }) {
  switch (folder.status) {
    case 'watching':
      return <span className="badge badge-ok">● Watching</span>;
    case 'starting':
      return <span className="badge">○ Starting</span>;
    case 'paused':
      return <span className="badge badge-muted">❚❚ Paused</span>;
    case 'unavailable':
      return <span className="badge badge-warn">⚠ Unavailable</span>;
  }
}

function FolderCard({ folder, onEdit }: { folder: WatchFolder; onEdit: () => void }) {
  const update = useApp((s) => s.updateFolder);
  const remove = useApp((s) => s.removeFolder);
  const approve = useApp((s) => s.approveFolder);
  const showFiles = useApp((s) => s.showFolderFiles);
  const notify = useApp((s) => s.notify);
  const now = useNow(30_000);
  const p = folder.preset;
  const toggle = () =>
    void update(folder.id, { paused: !folder.paused }).then((err) => err && notify('error', err.message));
  return (
    <li className="folder-card">
      <div className="folder-head">
        <h2 className="folder-path" title={folder.path}>
          {folder.path}
        </h2>
        <Status folder={folder} />
      </div>
      {folder.status === 'unavailable' && folder.statusMessage && (
        <p className="error-text">
          {folder.statusMessage} Nothing is lost: watching resumes when the folder is back.
        </p>
      )}
      <p className="folder-preset">
        {p.to.map(languageName).join(', ')}
        {p.studio && ' · studio'} · {p.api} ·{' '}
        {p.after === 'move' ? 'moves originals to done/' : 'leaves originals'}
        {p.recursive && ' · with subfolders'}
        {' · '}
        <span className="num">{formatCredits(folder.creditsPerHour)} for each hour of video</span>
        {p.creditLimit !== null && <span className="num"> · asks above {formatCredits(p.creditLimit)}</span>}
      </p>
      <p className="folder-out hint" title={folder.outDir}>
        Saves to {folder.outDir}
      </p>
      <ul className="folder-counts" aria-label="Files">
        {COUNTS.map(({ key, label }) => (
          <li key={key} className={folder.counts[key] === 0 ? 'zero' : `count-${key}`}>
            <span className="num">{formatCount(folder.counts[key])}</span> {label}
          </li>
        ))}
      </ul>
      <div className="folder-foot">
        <span className="muted">
          Last activity: {folder.lastActivityAt ? formatAgo(folder.lastActivityAt, now) : 'none yet'}
        </span>
        <div className="folder-actions">
          {folder.counts.awaitingApproval > 0 && (
            <button type="button" className="primary" onClick={() => void approve(folder)}>
              Approve {formatCount(folder.counts.awaitingApproval)}
            </button>
          )}
          <button type="button" onClick={() => void showFiles(folder.id)}>
            Files
          </button>
          <button type="button" onClick={toggle}>
            {folder.paused ? 'Resume' : 'Pause'}
          </button>
          <button type="button" onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="danger" onClick={() => void remove(folder)}>
            Remove…
          </button>
        </div>
      </div>
    </li>
  );
}

/** Folders that dub what lands in them: status, counts, spend per hour; add, edit, pause, remove, approve. */
export function WatchScreen() {
  const bridge = useBridge();
  const folders = useApp((s) => s.folders);
  const error = useApp((s) => s.foldersError);
  const [editing, setEditing] = useState<WatchFolder | 'new' | null>(null);
  const [droppedPath, setDroppedPath] = useState('');
  const [dropHint, setDropHint] = useState(false);

  return (
    <section
      className="screen watch-screen"
      aria-labelledby="watch-title"
      onDragOver={(e) => {
        e.preventDefault();
        e.stopPropagation();
      }}
      onDrop={(e) => {
        e.preventDefault();
        e.stopPropagation();
        const file = e.dataTransfer.files[0];
        if (!file) return;
        if (bridge.shell !== 'electron') {
          setDropHint(true);
          return;
        }
        void bridge.stageFiles([file]).then(([path]) => {
          setDroppedPath(path ?? '');
          setEditing('new');
        });
      }}
    >
      <div className="screen-head">
        <h1 id="watch-title">Watched folders</h1>
        <button
          type="button"
          className="primary"
          onClick={() => {
            setDroppedPath('');
            setEditing('new');
          }}
        >
          + Watch a folder
        </button>
      </div>
      <p className="hint">
        Files that land in a watched folder are dubbed into its languages, once each.{' '}
        {bridge.shell === 'electron'
          ? 'Drop a folder here to watch it.'
          : 'Type the folder’s path to watch it.'}
      </p>
      {dropHint && (
        <p className="hint warn" role="status">
          A browser cannot tell Dubdesk where a dropped folder lives: type its path instead.
        </p>
      )}
      <ErrorText error={error} />
      {folders?.length === 0 && (
        <div className="queue-empty">
          <p className="queue-empty-title">No folder is watched yet</p>
          <p>
            Watch a folder and Dubdesk dubs every video that lands in it, without adding each file — while
            Dubdesk runs: this app, <code>dubdesk serve</code> or <code>dubdesk run</code>.
          </p>
        </div>
      )}
      <ul className="folder-list">
        {folders?.map((f) => (
          <FolderCard key={f.id} folder={f} onEdit={() => setEditing(f)} />
        ))}
      </ul>
      {editing && (
        <WatchFolderForm
          folder={editing === 'new' ? null : editing}
          initialPath={droppedPath}
          onClose={() => setEditing(null)}
        />
      )}
      <WatchFiles />
    </section>
  );
}
