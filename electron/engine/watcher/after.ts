import { holdPoint } from '../files/hold-point';
import { readdir, stat, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { makeFolder } from '../files/make-folder';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Outcome, WatchFileRow, WatchFolderRow } from '../db/watch';
import { KeyLock } from '../outputs/key-lock';
import { freeName, settle, withVariant } from '../outputs/naming';
import type { WatchEnv } from './env';
import { DONE_DIR, FAILED_DIR } from './ignore';
import { locationOf } from './take';

const dirFor = (outcome: Outcome) =>
  outcome === 'done' ? DONE_DIR : outcome === 'failed' ? FAILED_DIR : null;

/**
 * Files whose jobs have all finished: their outcome is recorded (it outlives the jobs, which a user may
 * clear), and with `after: move` the original goes to `done/` (every language completed) or `failed/` (one
 * failed), keeping its subfolder, under a name that replaces nothing. Only the very file that was taken
 * moves: if the path holds other content by now, it stays.
 */
export function settleOutcomes(env: WatchEnv, folder: WatchFolderRow): Promise<number> {
  // One at a time per folder: two at once (a job's completion, then its QC a moment later) both saw the
  // file to move; the second found it gone and recorded no move, and the first's record then lost its race.
  return settling.run(String(folder.id), () => settleNow(env, folder));
}

const settling = new KeyLock();

/** Passes over the folder's settled files: one, and another for each that was written meanwhile. */
const MOST_PASSES = 3;

async function settleNow(env: WatchEnv, folder: WatchFolderRow): Promise<number> {
  let moved = 0;
  for (let pass = 0; pass < MOST_PASSES; pass++) {
    const done = await settlePass(env, folder);
    moved += done.moved;
    if (!done.stale) break;
  }
  return moved;
}

/**
 * One look at each settled file. A row written while its original moved (a scan beside it found the file
 * gone from its path and said so: a restart after a kill -9 mid-move runs both at once) keeps its record
 * unwritten: it is `stale`, read again and settled in the next pass, where the move is found done.
 */
async function settlePass(env: WatchEnv, folder: WatchFolderRow): Promise<{ moved: number; stale: boolean }> {
  let moved = 0;
  let stale = false;
  for (const row of env.watch.views.settled(folder.id)) {
    const outcome = row.now_outcome;
    const target = folder.preset.after === 'move' ? dirFor(outcome) : null;
    let movedTo: string | null | undefined;
    if (target) {
      try {
        movedTo = await moveOriginal(folder, row, target);
      } catch (e) {
        const message = `could not move ${locationOf(row)} to ${target}/: ${(e as Error).message}`;
        env.warn({ path: row.path }, message);
        env.watch.files.update(row.id, row.rev, { problem: { code: 'disk', message } }, Date.now());
        continue;
      }
      if (movedTo) await holdPoint('watch-moved');
    }
    const now = Date.now();
    const recorded = env.watch.files.update(
      row.id,
      row.rev,
      { outcome, ...(movedTo ? { moved_to: movedTo, gone: 0 } : {}), problem: null },
      now,
    );
    if (!recorded) {
      stale = true;
      continue;
    }
    if (movedTo) {
      moved++;
      env.info({ from: locationOf(row), to: movedTo, outcome }, `moved the original to ${target}/`);
      env.watch.folders.activity(folder.id, now);
    }
  }
  return { moved, stale };
}

/**
 * Returns where it moved the file, or null when it stays (already there, gone, or replaced). A move a crash
 * cut short (kill -9, a power cut) is finished, not made again: the original linked into the target but
 * not yet unlinked here, or moved there with the record never written.
 */
async function moveOriginal(
  folder: WatchFolderRow,
  row: WatchFileRow,
  target: string,
): Promise<string | null> {
  const from = locationOf(row);
  const targetRoot = join(folder.path, target);
  if (from === targetRoot || from.startsWith(`${targetRoot}${sep}`)) return null;
  const wanted = join(targetRoot, relative(folder.path, row.path));
  const seen = await stat(from).catch(() => null);
  const ours = seen?.isFile() && sameAsTaken(seen, row) ? seen : null;
  if (!seen || (ours && ours.nlink > 1)) {
    const placed = await placedBefore(wanted, row, ours);
    if (placed && ours) await unlink(from).catch(ignoreGone);
    if (placed) return placed;
  }
  if (!ours) return null;
  await makeFolder(dirname(wanted));
  // Hard link then unlink (rename where links are not possible): an existing name is never replaced.
  const free = await freeName(dirname(wanted), basename(wanted));
  return settle(from, free);
}

/**
 * Where an earlier move of this file put it: `wanted` or a numbered variant of it holding the very file
 * (the original's inode while the original is still linked; else its size and modification time, which a
 * link or rename keeps).
 */
async function placedBefore(
  wanted: string,
  row: WatchFileRow,
  original: Stats | null,
): Promise<string | null> {
  const names = new Set(await readdir(dirname(wanted)).catch((): string[] => []));
  for (let n = 1; n <= names.size; n++) {
    const name = withVariant(basename(wanted), n);
    if (!names.has(name)) continue;
    const path = join(dirname(wanted), name);
    const there = await stat(path).catch(() => null);
    if (!there?.isFile()) continue;
    const same = original
      ? there.dev === original.dev && there.ino === original.ino
      : sameAsTaken(there, row);
    if (same) return path;
  }
  return null;
}

/** The size and modification time it was taken with (as file-check's look rounds them). */
const sameAsTaken = (info: Stats, row: WatchFileRow) =>
  info.size === row.size && Math.round(info.mtimeMs) === row.mtime_ms;

const ignoreGone = (e: NodeJS.ErrnoException) => {
  if (e.code !== 'ENOENT') throw e;
};
