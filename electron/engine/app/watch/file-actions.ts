import { DubdeskError } from '../../../../shared/contract/errors';
import type { WatchFile } from '../../../../shared/contract/watch';
import type { WatchFileRow, WatchFolderRow } from '../../db/watch';
import type { WatchEnv } from '../../watcher/env';
import { look } from '../../watcher/file-check';
import { check, hashAndMark } from '../../watcher/settle';
import { locationOf, takeReady } from '../../watcher/take';
import { fileView } from './views';

/** What a user's action on a watched folder's files needs. */
export interface FileActionContext {
  env: WatchEnv;
  folder: WatchFolderRow;
  info(fields: Record<string, unknown>, message: string): void;
}

/** Releases the files awaiting approval: queued here and now (or by the watching process, if first). */
export async function approveFolder({ env, folder, info }: FileActionContext) {
  const { watch } = env;
  const now = Date.now();
  const released: WatchFileRow[] = [];
  let credits = 0;
  let unknownLength = 0;
  for (const row of watch.files.withStatus(folder.id, 'awaiting-approval')) {
    if (watch.files.update(row.id, row.rev, { status: 'ready', approved: 1, problem: null }, now)) {
      credits += row.credits ?? 0;
      if (row.credits === null) unknownLength++;
      const fresh = watch.files.get(row.id);
      if (fresh) released.push(fresh);
    }
  }
  info({ folder: folder.path, files: released.length, credits, unknownLength }, 'watched files approved');
  const taken = released.length ? await takeReady(env, folder, released) : null;
  return { queued: released.length, jobIds: taken?.jobIds ?? [], credits, unknownLength };
}

/**
 * Dubs a file of the folder again (`given` is its full path): a taken one is queued again once its jobs
 * ended; one not queued yet is looked at now and queued without waiting for approval.
 */
export async function reprocessFile(ctx: FileActionContext, given: string): Promise<WatchFile> {
  const { env, folder } = ctx;
  const { watch } = env;
  const row = watch.files.byLocation(folder.id, given);
  if (!row || row.status === 'output')
    throw new DubdeskError('not-found', `${given} is not a file of the watched folder ${folder.path}`, {
      remedy: 'List the folder’s files to see the paths.',
      field: 'path',
    });
  if ((await look(locationOf(row))).kind !== 'file')
    throw new DubdeskError('not-found', `${locationOf(row)} is no longer there`, {
      remedy: 'Put the file back in the folder; it is taken again by itself if its content is new.',
      field: 'path',
    });
  const now = Date.now();
  if (row.status === 'taken' || row.status === 'duplicate') {
    const busy = watch.links
      .linkedJobs([row.id])
      .find((j) => j.own === 1 && !['completed', 'failed', 'canceled'].includes(j.state));
    if (busy)
      throw new DubdeskError('conflict', `${locationOf(row)} is still being dubbed (job ${busy.job_id})`, {
        remedy: 'Wait until its jobs finish, or cancel them first.',
      });
    if (!row.hash) throw new DubdeskError('internal', `${row.path} has no recorded content`);
    if (!watch.files.update(row.id, row.rev, { status: 'ready', forced: 1, approved: 1, problem: null }, now))
      throw new DubdeskError('conflict', `${row.path} changed meanwhile; try again`);
    const fresh = watch.files.get(row.id);
    if (fresh) await takeReady(env, folder, [fresh]);
  } else {
    const reset = {
      status: 'settling' as const,
      forced: 1,
      approved: 1,
      attempts: 0,
      wait_since: now,
      changed_at: now - env.timing.settleMs,
      next_check_at: now,
      problem: null,
      hash: null,
    };
    if (!watch.files.update(row.id, row.rev, reset, now))
      throw new DubdeskError('conflict', `${row.path} changed meanwhile; try again`);
    await tryNow(env, folder, row.id);
  }
  const after = watch.files.get(row.id) ?? watch.files.byLocation(folder.id, given);
  if (!after) throw new DubdeskError('not-found', `${given} is no longer there`);
  return fileOf(env, after, folder);
}

/** The settle check, hash and take of one file, here and now (a user asked; no need to wait a tick). */
async function tryNow(env: WatchEnv, folder: WatchFolderRow, fileId: number): Promise<void> {
  const row = env.watch.files.get(fileId);
  if (!row || !(await check(env, folder, row))) return;
  const stable = env.watch.files.get(fileId);
  if (!stable) return;
  await hashAndMark(env, folder, stable, new AbortController().signal);
  const ready = env.watch.files.get(fileId);
  if (ready?.status === 'ready') await takeReady(env, folder, [ready]);
}

function fileOf(env: WatchEnv, row: WatchFileRow, folder: WatchFolderRow): WatchFile {
  const view = env.watch.views.view(row.id);
  if (!view)
    throw new DubdeskError('not-found', `${row.path} is not a file of the watched folder ${folder.path}`);
  return fileView(view, folder.path, env.watch.links.jobIdsOf([row.id]).get(row.id) ?? []);
}
