import { existsSync } from 'node:fs';
import { dirname, join, parse, relative } from 'node:path';
import { creditsFor } from '../../../shared/credits';
import type { JobRow, NewJob } from '../db/jobs';
import type { WatchFolderRow } from '../db/watch';
import { outRootOf, type WatchEnv } from './env';

/** A language another file (or an earlier manual dub of this one) already dubs: not paid again. */
export interface Cover {
  jobId: number;
  fileId: number | null;
}

/** What a job's result names are made of. */
export type ResultNames = Pick<NewJob, 'out_dir' | 'naming' | 'source_name'>;

/** Where a watched file's results go: the folder's output root, with the file's subfolder mirrored. */
export const outDirOf = (folder: Pick<WatchFolderRow, 'path' | 'preset'>, path: string): string =>
  join(outRootOf(folder), relative(folder.path, dirname(path)));

const sameNames = (a: ResultNames, b: ResultNames) =>
  a.out_dir === b.out_dir && a.naming === b.naming && parse(a.source_name).name === parse(b.source_name).name;

/**
 * Whether a covered language gets a copy job (results linked under this file's own names, at no charge):
 * the dub that covers it names its results differently (another file, another folder), and it is still
 * under way or its results are all still on disk. Otherwise the file shares that dub as it is: its results
 * already carry these names, or are gone (a "Dub again" makes them anew, on purpose).
 */
export function wantsCopy(env: WatchEnv, cover: Cover, names: ResultNames): boolean {
  const dub = env.store.reads.get(cover.jobId);
  if (!dub || sameNames(dub, names)) return false;
  if (dub.state !== 'completed') return true;
  const outputs = env.store.outputs.of(dub.id).filter((o) => o.done === 1);
  return outputs.length > 0 && outputs.every((o) => existsSync(o.path));
}

/**
 * The dub of this job's content this job copies instead of paying again: one under way right now, other
 * than by a copy (an identical file taken a moment before, in the same look or by another process, or
 * added by hand), or one completed outside this folder (added by hand, another folder) whose results are
 * all still on disk; the folder's own dubs are its files' coverage, by preset version. Null for a copy
 * already, a file without a hash, or when none is.
 */
export function twinOf(env: WatchEnv, job: NewJob): JobRow | null {
  if (job.reuse_results || !job.source_hash) return null;
  const key = { ...job, source_hash: job.source_hash };
  const twin = env.store.sameContent.carrierOf(key, 0);
  if (twin) return sameNames(twin, job) ? null : twin;
  for (const done of env.store.sameContent.completedDubsOf(key))
    if (done.watch_folder_id !== job.watch_folder_id)
      return wantsCopy(env, { jobId: done.id, fileId: null }, job) ? done : null;
  return null;
}

/** Credits a file's jobs are estimated at: copies cost nothing. */
export const creditsOfJobs = (jobs: readonly NewJob[]): number =>
  jobs.reduce(
    (n, j) => n + (j.reuse_results || j.duration === null ? 0 : creditsFor(j.duration, j.studio === 1)),
    0,
  );
