import { readFile, readdir, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DubdeskApi } from '../../shared/contract/methods';
import { stagedName } from './staged-name';
import { STAGED_MARKER } from './staging';

export interface SweepOptions {
  /** `<home>/staging`. */
  root: string;
  api: DubdeskApi;
  /** Uploads in progress: never swept. */
  active: ReadonlySet<string>;
  /** A staged file untouched for this long, and used by no job, goes. */
  retentionMs: number;
  now?: number;
}

async function inUse(api: DubdeskApi, folder: string): Promise<boolean> {
  const page = await api.listJobs({ filter: { search: folder }, limit: 500 });
  return page.jobs.some((j) => j.source.includes(folder));
}

/** Sweeps one staging folder; true when its staged file was deleted. */
async function sweepFolder(dir: string, folder: string, opts: SweepOptions, now: number): Promise<boolean> {
  const entries = await readdir(dir);
  if (entries.length === 0) {
    await rmdir(dir); // left by a stop between making the folder and writing its marker
    return false;
  }
  if (!entries.includes(STAGED_MARKER)) return false; // not ours: left alone
  const name = stagedName(await readFile(join(dir, STAGED_MARKER), 'utf8'));
  const file = join(dir, name);
  const written = await stat(file).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  if (now - Math.max(written, (await stat(dir)).mtimeMs) < opts.retentionMs) return false;
  if (await inUse(opts.api, folder)) return false;
  await rm(file, { force: true });
  await rm(join(dir, STAGED_MARKER), { force: true });
  // Results written beside a staged file (no output folder was chosen) are the user's: they stay.
  await rmdir(dir).catch(() => {});
  return true;
}

/**
 * Staged files live as long as the queue needs them: one goes once no job uses it (its jobs were finished
 * and cleared, or it was never added) and it was not written for `retentionMs` (time to estimate and add
 * after dropping). Only the staged file itself is deleted, never a result the engine wrote beside it.
 * Returns the folders whose staged file was deleted.
 */
export async function sweepStaging(opts: SweepOptions): Promise<string[]> {
  const now = opts.now ?? Date.now();
  const removed: string[] = [];
  let folders: string[];
  try {
    folders = await readdir(opts.root);
  } catch {
    return removed; // nothing staged yet
  }
  for (const folder of folders) {
    if (opts.active.has(folder)) continue;
    try {
      if (await sweepFolder(join(opts.root, folder), folder, opts, now)) removed.push(folder);
    } catch {
      /* changed under us, or not a folder; the next sweep looks again */
    }
  }
  return removed;
}
