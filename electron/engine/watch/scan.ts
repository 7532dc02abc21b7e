import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WatchFolderRow } from '../db/watch';
import type { WatchEnv } from './env';
import type { IgnoreMatcher } from './ignore';
import { discover } from './discover';
import { look } from './file-check';

/**
 * Files of one folder stat'ed at once during a scan: a stat waits on the disk (or the network), so one at
 * a time a 10,000-file folder took seconds where `find` takes a fraction of one. Node's file operations
 * share four threads; this keeps them busy without queueing thousands of requests at once.
 */
const STATS_AT_ONCE = 64;

/**
 * Walks the whole folder (its subfolders too when recursive; never into ignored ones, never through a
 * symlinked folder) and looks at every file as an event would: this is how files that arrived while no
 * Dubdesk ran, or whose events were lost, are found. Afterwards, files it no longer finds are marked gone
 * (or forgotten, when they were never taken). Returns false when the folder itself could not be read.
 */
export async function fullScan(
  env: WatchEnv,
  folder: WatchFolderRow,
  matcher: IgnoreMatcher,
  stopped: () => boolean,
): Promise<boolean> {
  const seen = new Set<string>();
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
        if (matcher.ignored(path, 'file')) continue;
        seen.add(path);
        files.push(path);
      }
    }
    for (let i = 0; i < files.length && !stopped(); i += STATS_AT_ONCE) {
      const chunk = files.slice(i, i + STATS_AT_ONCE);
      const looks = await Promise.all(chunk.map((p) => look(p)));
      for (const [k, path] of chunk.entries())
        await discover(env, folder, matcher, path, Date.now(), looks[k]);
    }
  };
  await walk(folder.path, 0);
  if (!rootRead || stopped()) return rootRead;
  const now = Date.now();
  const gone: number[] = [];
  const back: number[] = [];
  for (const row of env.watch.present(folder.id)) {
    const here = seen.has(row.path);
    if (row.status === 'taken' || row.status === 'duplicate') {
      if (!here && !row.moved_to && !row.gone) gone.push(row.id);
      if (here && row.gone) back.push(row.id);
    } else if (!here && row.status !== 'output') {
      // Not taken and no longer there: its check forgets it.
      const fresh = env.watch.file(row.id);
      if (fresh) env.watch.update(fresh.id, fresh.rev, { status: 'settling', next_check_at: now }, now);
    }
  }
  env.watch.setGone(gone, true);
  env.watch.setGone(back, false);
  if (gone.length || back.length) env.folderChanged(folder.id);
  return true;
}
