import { constants } from 'node:fs';
import { copyFile, lstat, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { DubdeskError, type ContractError } from '../../../../shared/contract/errors';
import type { JobStore, OutputRow } from '../../db/jobs';
import { makeFolder } from '../../files/make-folder';
import { checkOutputFolder } from '../batches/checks';

/** A job, and the folder its results are to be in from now on. */
export interface Relocation {
  id: number;
  outDir: string;
}

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** Moves one file (a copy where another job keeps it, or across devices); the record follows it. */
async function moveOutput(store: JobStore, o: OutputRow, to: string): Promise<void> {
  const outDir = dirname(to);
  const from = o.path;
  if (await exists(to)) {
    // A move a crash cut between the rename and its record: the file is already there.
    if (!(await exists(from))) return store.outputs.put({ ...o, path: to });
    throw new DubdeskError('conflict', `cannot move ${from} to ${outDir}: ${to} already exists`, {
      remedy: 'Move or rename that file, or choose another folder, then retry.',
      field: 'outDir',
    });
  }
  if (!(await exists(from))) {
    // Gone from disk (deleted by hand): fetched again into the new folder.
    store.outputs.put({ ...o, path: to, bytes: null, done: 0 });
    return;
  }
  // Never through an entry put at `to` since it was looked at (a link would send the copy elsewhere).
  if (store.outputs.sharedByAnother(o)) await copyFile(from, to, constants.COPYFILE_EXCL);
  else
    await rename(from, to).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EXDEV') throw e;
      await copyFile(from, to, constants.COPYFILE_EXCL);
      await rm(from, { force: true });
    });
  store.outputs.put({ ...o, path: to });
}

/** Where a result goes in the new folder: at the same place under it (`es/Movie.mp4` stays in `es/`). */
function placeIn(oldDir: string, outDir: string, path: string): string {
  const rel = relative(oldDir, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? join(outDir, rel) : join(outDir, basename(path));
}

/** Moves what one job saved to `outDir` and makes it the job's folder; what it was still writing is dropped. */
async function relocateOne(store: JobStore, id: number, oldDir: string, outDir: string): Promise<void> {
  await makeFolder(outDir).catch((e: NodeJS.ErrnoException) => {
    throw new DubdeskError('permission', `cannot create the folder ${outDir} (${e.code ?? e.message})`, {
      remedy: 'Choose a folder you can write to.',
      field: 'outDir',
    });
  });
  for (const o of store.outputs.of(id)) {
    if (o.done === 1) {
      const to = placeIn(oldDir, outDir, o.path);
      await makeFolder(dirname(to))
        .then(() => moveOutput(store, o, to))
        .catch((e: unknown) => {
          if (e instanceof DubdeskError) throw e;
          const err = e as NodeJS.ErrnoException;
          throw new DubdeskError('disk', `cannot move ${o.path} to ${outDir} (${err.code ?? err.message})`, {
            remedy: 'Check that both folders are writable, then retry.',
            field: 'outDir',
          });
        });
    } else await rm(`${o.path}.part`, { force: true });
  }
  store.outputs.clearPending(id);
  store.writes.record(id, 'user', { out_dir: outDir });
}

/**
 * Gives failed or canceled jobs a new output folder. What a job already saved moves there with it, and
 * what it was still writing is dropped (it is fetched again there), so a job's results are never split
 * between two folders. Jobs in any other state are left for the action to refuse.
 */
export async function relocateJobs(store: JobStore, moves: readonly Relocation[]): Promise<number[]> {
  const moved: number[] = [];
  for (const { id, outDir } of moves) {
    const row = store.reads.get(id);
    if (!row || (row.state !== 'failed' && row.state !== 'canceled') || row.out_dir === outDir) continue;
    await relocateOne(store, id, row.out_dir, outDir);
    moved.push(id);
  }
  return moved;
}

/**
 * "Retry into another folder" of a completed job: it is not dubbed again (it was paid for once); its
 * results move to `outDir`, at no charge, and stay recorded as its own. When they are no longer all on
 * disk there is nothing to move: refused (no folder made), saying that only dubbing it again helps.
 */
export async function moveCompletedResults(
  store: JobStore,
  ids: readonly number[],
  outDir: string,
): Promise<{ moved: number[]; skipped: { id: number; error: ContractError }[] }> {
  const out: { moved: number[]; skipped: { id: number; error: ContractError }[] } = {
    moved: [],
    skipped: [],
  };
  for (const id of ids) {
    const row = store.reads.get(id);
    if (!row || row.state !== 'completed') continue;
    if (row.out_dir === outDir) {
      out.moved.push(id);
      continue;
    }
    const saved = store.outputs.of(id).filter((o) => o.done === 1);
    const gone: string[] = [];
    for (const o of saved) if (!(await exists(o.path))) gone.push(o.path);
    if (saved.length === 0 || gone.length > 0) {
      const which = gone.length
        ? `${gone[0]}${gone.length > 1 ? ` and ${gone.length - 1} more` : ''}`
        : 'nothing was saved';
      out.skipped.push({
        id,
        error: {
          code: 'not-found',
          message: `job ${id} is completed and its results are no longer on disk (${which}): there is nothing to move, and a retry does not dub it again`,
          remedy:
            'Add its source again with --again ("Dub again") to dub it once more into that folder; that is charged.',
          field: 'outDir',
        },
      });
      continue;
    }
    await checkOutputFolder(outDir, 'outDir', true);
    await relocateOne(store, id, row.out_dir, outDir);
    out.moved.push(id);
  }
  return out;
}
