import type { WatchFile } from '../../../shared/contract/watch';
import { baseName, formatAgo, formatEta, withoutPathPrefix } from '../format';
import { useApp } from '../store';
import { Dialog } from './Dialog';
import { useNow } from './useNow';

/** Keyed by plain strings: a status this table does not know yet is shown as it is, never hidden. */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  settling: '… still being written',
  waiting: '○ waiting',
  queued: '○ queued',
  working: '◐ working',
  done: '✓ done',
  failed: '✗ failed',
  canceled: '⊘ canceled',
  attention: '⚠ needs attention',
  'awaiting-approval': '❚❚ awaiting approval',
  duplicate: '= dubbed before (same content)',
};

function checksAgain(file: WatchFile, now: number): string | null {
  if (!file.nextCheckAt) return null;
  const left = Math.ceil((Date.parse(file.nextCheckAt) - now) / 1000);
  return left > 0 ? `checks again in ${formatEta(left)}` : 'checking again';
}

/** A watched folder's files, each with its status and, when there is one, its problem in words. */
export function WatchFiles() {
  const view = useApp((s) => s.watchFiles);
  const folder = useApp((s) => s.folders?.find((f) => f.id === s.watchFiles?.folderId) ?? null);
  const show = useApp((s) => s.showFolderFiles);
  const reprocess = useApp((s) => s.reprocessFile);
  const now = useNow(1000, view !== null);
  if (!view) return null;
  return (
    <Dialog
      open
      title={`Files in ${folder ? baseName(folder.path) : 'folder'}`}
      onClose={() => void show(null)}
      className="sheet"
    >
      {view.error && <p className="error-text">{view.error.message}</p>}
      {view.files.length === 0 && !view.error && <p className="muted">No file seen in this folder yet.</p>}
      {view.files.length > 0 && (
        <table className="watch-files">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Status</th>
              <th scope="col">Seen</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.files.map((f) => (
              <tr key={f.path}>
                <td className="file-name" title={f.path}>
                  {baseName(f.path)}
                  {f.problem && (
                    <span className="file-problem">
                      {withoutPathPrefix(f.problem.message, f.path)}
                      {f.problem.remedy && <span className="remedy"> {f.problem.remedy}</span>}
                    </span>
                  )}
                </td>
                <td>
                  {f.status === 'duplicate' && f.duplicateOf
                    ? `= copied from ${baseName(f.duplicateOf)} (same content)`
                    : (STATUS_WORDS[f.status] ?? f.status)}
                  {checksAgain(f, now) && <span className="muted"> · {checksAgain(f, now)}</span>}
                </td>
                <td className="num">{formatAgo(f.firstSeenAt, now)}</td>
                <td>
                  {['done', 'failed', 'attention', 'duplicate'].includes(f.status) && (
                    <button
                      type="button"
                      className="small"
                      onClick={() => void reprocess(f.folderId, f.path)}
                    >
                      Dub again
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {view.total > view.files.length && (
        <p className="muted">
          Showing the first {view.files.length} of {view.total} files.
        </p>
      )}
    </Dialog>
  );
}
