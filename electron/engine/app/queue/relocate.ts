import { copyFile, lstat, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DubdeskError } from '../../../../shared/contract/errors';
import type { JobStore, OutputRow } from '../../db/jobs';
import { makeFolder } from '../../files/make-folder';

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

/** Whether another job records the same file (an output shared by the languages of one source). */
function shared(store: JobStore, o: OutputRow): boolean {
  return (
    store.db.prepare(`SELECT 1 FROM outputs WHERE path = ? AND job_id <> ? LIMIT 1`).get(o.path, o.job_id) !==
    undefined
  );
}

/** Moves one file (a copy where another job keeps it, or across devices); the record follows it. */
async function moveOutput(store: JobStore, o: OutputRow, outDir: string): Promise<void> {
  const to = join(outDir, basename(o.path));
  const from = o.path;
  if (await exists(to)) {
    // A move a crash cut between the rename and its record: the file is already there.
    if (!(await exists(from))) return store.putOutput({ ...o, path: to });
    throw new DubdeskError('conflict', `cannot move ${from} to ${outDir}: ${to} already exists`, {
      remedy: 'Move or rename that file, or choose another folder, then retry.',
      field: 'outDir',
    });
  }
  if (!(await exists(from))) {
    // Gone from disk (deleted by hand): fetched again into the new folder.
    store.putOutput({ ...o, path: to, bytes: null, done: 0 });
    return;
  }
  if (shared(store, o)) await copyFile(from, to);
  else
    await rename(from, to).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EXDEV') throw e;
      await copyFile(from, to);
      await rm(from, { force: true });
    });
  store.putOutput({ ...o, path: to });
}

/**
 * Gives failed or canceled jobs a new output folder. What a job already saved moves there with it, and
 * what it was still writing is dropped (it is fetched again there), so a job's results are never split
 * between two folders. Jobs in any other state are left for the action to refuse.
 */
export async function relocateJobs(store: JobStore, moves: readonly Relocation[]): Promise<number[]> {
  const moved: number[] = [];
  for (const { id, outDir } of moves) {
    const row = store.get(id);
    if (!row || (row.state !== 'failed' && row.state !== 'canceled') || row.out_dir === outDir) continue;
    await makeFolder(outDir).catch((e: NodeJS.ErrnoException) => {
      throw new DubdeskError('permission', `cannot create the folder ${outDir} (${e.code ?? e.message})`, {
        remedy: 'Choose a folder you can write to.',
        field: 'outDir',
      });
    });
    for (const o of store.outputs(id)) {
      if (o.done === 1) {
        await moveOutput(store, o, outDir).catch((e: unknown) => {
          if (e instanceof DubdeskError) throw e;
          const err = e as NodeJS.ErrnoException;
          throw new DubdeskError('disk', `cannot move ${o.path} to ${outDir} (${err.code ?? err.message})`, {
            remedy: 'Check that both folders are writable, then retry.',
            field: 'outDir',
          });
        });
      } else await rm(`${o.path}.part`, { force: true });
    }
    store.clearPendingOutputs(id);
    store.record(id, 'user', { out_dir: outDir });
    moved.push(id);
  }
  return moved;
}
