import { useEffect } from 'react';
import type { WatchFile } from '../../../shared/contract/watch';
import { earlierVersionWords, newerVersion, renamedFrom, renamedTo } from '../../../shared/watch-renames';
import { baseName, formatAgo, formatEta, withoutPathPrefix } from '../format';
import { useApp } from '../store';
import { Dialog } from './Dialog';
import { useNow } from './useNow';
import { ProblemWords } from './ProblemWords';

/** How often the Files dialog reads its folder's files again while it is open. */
const REREAD_MS = 2000;

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

/**
 * A file's status in words: a rename says so on both names, a file no longer there says it is gone, a version
 * replaced by a newer one says where its results went.
 */
function statusWords(f: WatchFile, all: readonly WatchFile[]): string {
  if (newerVersion(f, all)) return `${STATUS_WORDS[f.status] ?? f.status} · ${earlierVersionWords(f)}`;
  const from = renamedFrom(f, all);
  if (from) return `= renamed from ${baseName(from.path)}: its results keep their names`;
  if (f.gone) {
    const to = renamedTo(f, all);
    return to ? `gone: renamed to ${baseName(to.path)}` : 'gone (deleted or moved elsewhere)';
  }
  if (f.status === 'duplicate' && f.duplicateOf)
    return `= copied from ${baseName(f.duplicateOf)} (same content)`;
  return STATUS_WORDS[f.status] ?? f.status;
}

/** A watched folder's files, each with its status and, when there is one, its problem in words. */
export function WatchFiles() {
  const view = useApp((s) => s.watchFiles);
  const folder = useApp((s) => s.folders?.find((f) => f.id === s.watchFiles?.folderId) ?? null);
  const show = useApp((s) => s.showFolderFiles);
  const reprocess = useApp((s) => s.reprocessFile);
  const now = useNow(1000, view !== null);
  // Read again while shown: a file's status (taken, renamed, gone) moves on without the folder's counts.
  const shownId = view?.folderId ?? null;
  useEffect(() => {
    if (shownId === null) return;
    const timer = setInterval(() => void show(shownId), REREAD_MS);
    return () => clearInterval(timer);
  }, [shownId, show]);
  if (!view) return null;
  return (
    <Dialog
      open
      title={folder ? `Files in “${baseName(folder.path)}”` : 'Files in the watched folder'}
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
              <tr key={f.id}>
                <td className="file-name" title={f.path}>
                  {baseName(f.path)}
                  {f.problem && (
                    <span className="file-problem">
                      <ProblemWords
                        message={withoutPathPrefix(f.problem.message, f.path)}
                        remedy={f.problem.remedy}
                      />
                    </span>
                  )}
                </td>
                <td>
                  {statusWords(f, view.files)}
                  {checksAgain(f, now) && <span className="muted"> · {checksAgain(f, now)}</span>}
                </td>
                <td className="num">{formatAgo(f.firstSeenAt, now)}</td>
                <td>
                  {!f.gone &&
                    !newerVersion(f, view.files) &&
                    ['done', 'failed', 'attention', 'duplicate'].includes(f.status) && (
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
