import type { WatchFileRow, WatchFolderRow } from '../db/watch';
import type { WatchEnv } from './env';
import { look, type Seen } from './file-check';
import type { IgnoreMatcher } from './ignore';

/** Before it is taken, a file is still the watcher's to look at; once taken, only a change matters. */
const PENDING = new Set<WatchFileRow['status']>([
  'settling',
  'waiting',
  'attention',
  'ready',
  'awaiting-approval',
]);

/** A taken file no longer there is marked gone; one back again is no longer (as a full scan does). */
function markGone(env: WatchEnv, row: WatchFileRow | undefined | null, gone: boolean): void {
  if (!row || row.moved_to || (row.status !== 'taken' && row.status !== 'duplicate')) return;
  if ((row.gone === 1) === gone) return;
  env.watch.files.setGone([row.id], gone);
}

/**
 * A path was seen (an event, or a scan walked past it): record what it is. A new file starts settling; a
 * file not yet taken whose size or mtime moved starts settling again; a taken file whose content may have
 * changed (or that Dubdesk moved away and that appeared again) becomes a new version of its path. Nothing
 * here opens the file: a FIFO or device is only ever stat'ed.
 */
export async function discover(
  env: WatchEnv,
  folder: WatchFolderRow,
  matcher: IgnoreMatcher,
  path: string,
  now = Date.now(),
  /** What the path is, when the caller has just looked (a scan stats many at once). */
  looked?: Seen,
): Promise<void> {
  if (matcher.ignored(path, 'file')) return;
  const seen = looked ?? (await look(path));
  const row = env.watch.files.current(folder.id, path);
  if (seen.kind !== 'file') {
    // Gone or not a regular file: a pending row is looked at now (its check forgets it).
    if (row && (row.status === 'settling' || row.status === 'waiting'))
      env.watch.files.update(row.id, row.rev, { next_check_at: now }, now);
    // A taken file deleted or renamed away is gone at once, not only at the next full scan.
    else if (seen.kind === 'missing') markGone(env, row, true);
    return;
  }
  markGone(env, row, false);
  const settleAt = now + env.timing.settleMs;
  const identity = { size: seen.size, mtime_ms: seen.mtimeMs };
  const same = row && row.size === seen.size && row.mtime_ms === seen.mtimeMs;
  if (row && (row.status === 'output' || (same && !row.moved_to))) return;
  if (env.watch.files.isOwnOutput(path) || (await env.store.results.ownFilesAmong([path])).size > 0) {
    if (!row)
      env.watch.files.insert({
        folder_id: folder.id,
        path,
        version: 1,
        status: 'output',
        size: seen.size,
        mtime_ms: seen.mtimeMs,
        next_check_at: null,
        now,
      });
    return;
  }
  if (!row) {
    env.watch.files.insert({
      folder_id: folder.id,
      path,
      version: 1,
      status: 'settling',
      ...identity,
      next_check_at: settleAt,
      now,
    });
  } else if (PENDING.has(row.status)) {
    const fresh = row.status === 'attention' || row.status === 'awaiting-approval';
    env.watch.files.update(
      row.id,
      row.rev,
      {
        ...identity,
        status: 'settling',
        changed_at: now,
        next_check_at: settleAt,
        hash: null,
        // A changed file waiting for approval is a different cost: it is asked again.
        approved: 0,
        ...(fresh ? { wait_since: now, attempts: 0, problem: null } : {}),
      },
      now,
    );
  } else {
    // Taken: a new version of the path (its hash tells later whether only the mtime moved).
    env.store.tx(() => {
      if (!env.watch.files.update(row.id, row.rev, { current: 0 }, now)) return;
      env.watch.files.insert({
        folder_id: folder.id,
        path,
        version: row.version + 1,
        status: 'settling',
        ...identity,
        next_check_at: settleAt,
        now,
      });
    });
  }
  env.watch.folders.activity(folder.id, now);
}
