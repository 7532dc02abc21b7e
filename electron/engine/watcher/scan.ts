import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WatchFolderRow } from '../db/watch';
import type { PresentRow } from '../db/watch-store/rows';
import type { WatchEnv } from './env';
import type { IgnoreMatcher } from './ignore';
import { discover } from './discover';
import { look, type Seen } from './file-check';

/**
 * Files stat'ed at once: a stat waits on the disk (or the network), so one at a time a 10,000-file folder
 * took seconds where `find` takes a fraction of one. Node's file operations share four threads; this keeps
 * them busy without queueing thousands of requests at once.
 */
const STATS_AT_ONCE = 64;

/**
 * What a folder holds, path by path: what each is, or null where it is still to be looked at (a symlink,
 * whose target decides). Filled by a full scan's walk.
 */
export type Found = Map<string, Seen | null>;

/**
 * Catches the database up with what a folder holds, comparing every file with its row in one query: an
 * unchanged file (same size and mtime as recorded) costs nothing more, nothing is opened or hashed; the
 * others are looked at as an event would. Files it no longer finds are marked gone (or forgotten, when
 * they were never taken).
 */
export async function reconcile(
  env: WatchEnv,
  folder: WatchFolderRow,
  matcher: IgnoreMatcher,
  found: Found,
  stopped: () => boolean,
): Promise<void> {
  const rows = new Map(env.watch.files.present(folder.id).map((r) => [r.path, r]));
  const toLook: string[] = [];
  const changed: [string, Seen][] = [];
  for (const [path, seen] of found) {
    if (!seen) {
      toLook.push(path);
      continue;
    }
    const row = rows.get(path);
    const same =
      row && seen.kind === 'file' && row.size === seen.size && row.mtime_ms === seen.mtimeMs && !row.moved_to;
    if (!(row && (row.status === 'output' || same))) changed.push([path, seen]);
  }
  for (let i = 0; i < toLook.length && !stopped(); i += STATS_AT_ONCE) {
    const chunk = toLook.slice(i, i + STATS_AT_ONCE);
    const looks = await Promise.all(chunk.map((p) => look(p)));
    chunk.forEach((p, k) => changed.push([p, looks[k] ?? { kind: 'missing' }]));
  }
  for (const [path, seen] of changed) {
    if (stopped()) return;
    await discover(env, folder, matcher, path, Date.now(), seen);
  }
  if (stopped()) return;
  const now = Date.now();
  const gone: number[] = [];
  const back: number[] = [];
  for (const row of rows.values()) {
    const here = found.has(row.path);
    if (row.status === 'taken' || row.status === 'duplicate') {
      if (!here && !row.moved_to && !row.gone) gone.push(row.id);
      if (here && row.gone) back.push(row.id);
    } else if (!here && row.status !== 'output') {
      // Not taken and no longer there: its check forgets it.
      const fresh = env.watch.files.get(row.id);
      if (fresh) env.watch.files.update(fresh.id, fresh.rev, { status: 'settling', next_check_at: now }, now);
    }
  }
  env.watch.files.setGone(gone, true);
  env.watch.files.setGone(back, false);
}

/**
 * Catches the database up with some paths of a folder (what changed since its snapshot): each is looked at
 * as an event would, and a taken file among them that is gone, or back, is marked so.
 */
export async function reconcilePaths(
  env: WatchEnv,
  folder: WatchFolderRow,
  matcher: IgnoreMatcher,
  paths: readonly string[],
  stopped: () => boolean,
): Promise<void> {
  const gone: number[] = [];
  const back: number[] = [];
  for (let i = 0; i < paths.length && !stopped(); i += STATS_AT_ONCE) {
    const chunk = paths.slice(i, i + STATS_AT_ONCE);
    const looks = await Promise.all(chunk.map((p) => look(p)));
    for (const [k, path] of chunk.entries()) {
      if (stopped()) return;
      const seen = looks[k] ?? { kind: 'missing' };
      const row = env.watch.files.current(folder.id, path);
      if (row && (row.status === 'taken' || row.status === 'duplicate')) {
        if (seen.kind === 'missing' && !row.moved_to && !row.gone) gone.push(row.id);
        if (seen.kind === 'file' && row.gone) back.push(row.id);
      } else if (row && row.status !== 'output' && seen.kind === 'missing') {
        // Not taken and no longer there: its check forgets it.
        env.watch.files.update(
          row.id,
          row.rev,
          { status: 'settling', next_check_at: Date.now() },
          Date.now(),
        );
        continue;
      }
      await discover(env, folder, matcher, path, Date.now(), seen);
    }
  }
  env.watch.files.setGone(gone, true);
  env.watch.files.setGone(back, false);
}

/**
 * Of a folder's files whose recorded mtime is a whole second (a tool's, which may set the same one again
 * on other content, where the snapshot sees no change), those to look at: a stat each, and only a file
 * whose size or mtime moved, or that is gone or back, is looked at as an event would.
 */
export async function stampedChanged(rows: readonly PresentRow[]): Promise<string[]> {
  const changed: string[] = [];
  for (let i = 0; i < rows.length; i += STATS_AT_ONCE) {
    const chunk = rows.slice(i, i + STATS_AT_ONCE);
    const looks = await Promise.all(chunk.map((r) => look(r.path)));
    chunk.forEach((r, k) => {
      const seen = looks[k];
      const same =
        seen?.kind === 'file' &&
        seen.size === r.size &&
        seen.mtimeMs === r.mtime_ms &&
        !r.moved_to &&
        !r.gone;
      if (!same) changed.push(r.path);
    });
  }
  return changed;
}

/**
 * Walks the whole folder (its subfolders too when recursive; never into ignored ones, never through a
 * symlinked folder), stats every file and reconciles: how files that arrived while no Dubdesk ran, or whose
 * events were lost, are found when asked for (a rescan, a watcher error) and on polled folders. Returns
 * false when the folder itself could not be read.
 */
export async function fullScan(
  env: WatchEnv,
  folder: WatchFolderRow,
  matcher: IgnoreMatcher,
  stopped: () => boolean,
): Promise<boolean> {
  const found: Found = new Map();
  let rootRead = true;
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
    if (!entries) {
      if (depth === 0) rootRead = false;
      return;
    }
    const files: string[] = [];
    for (const entry of entries) {
      if (stopped()) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (folder.preset.recursive && !matcher.ignored(path, 'dir')) await walk(path, depth + 1);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (!matcher.ignored(path, 'file')) files.push(path);
      }
    }
    for (let i = 0; i < files.length && !stopped(); i += STATS_AT_ONCE) {
      const chunk = files.slice(i, i + STATS_AT_ONCE);
      const looks = await Promise.all(chunk.map((p) => look(p)));
      chunk.forEach((p, k) => found.set(p, looks[k] ?? null));
    }
  };
  await walk(folder.path, 0);
  if (!rootRead || stopped()) return rootRead;
  await reconcile(env, folder, matcher, found, stopped);
  return true;
}
