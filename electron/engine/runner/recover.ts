import { join } from 'node:path';
import type { Waiting } from '../../../shared/contract/jobs';
import type { JobStore } from '../db/jobs';
import { transition } from '../jobs/life';
import { sweepStagedMedia } from '../flows/audio/stage';
import type { RunnerHooks } from './runner-types';

/**
 * Holding the lock, every token still set was left by a worker that died: free them, and put jobs caught
 * mid-upload back in the queue (they resume from what was recorded). Their number is the crash banner's.
 */
export function recoverLeftJobs(store: JobStore, hooks: RunnerHooks): void {
  const leased = store.leases.leasedCount();
  store.leases.resetLeases();
  for (const row of store.lists.page({ states: ['uploading'] }, 0, 100_000).rows) {
    try {
      transition(store, row.id, 'user', { type: 'interrupted' });
    } catch {
      /* moved meanwhile */
    }
  }
  if (leased > 0) hooks.resumed(leased);
}

/**
 * The audio path's part of the data folder's staging area: a hidden folder of its own beside the files the
 * browser face stages (one folder each, which it sweeps), so neither takes the other's for its own.
 */
export const audioPathStaging = (home: string) => join(home, 'staging', '.audio-path');

/** `recoverLeftJobs`, then the staged sounds no job needs any more (a killed run's parts among them). */
export async function recoverLeft(store: JobStore, hooks: RunnerHooks, stagingDir: string): Promise<void> {
  recoverLeftJobs(store, hooks);
  await sweepStagedMedia(stagingDir, store);
}

/**
 * The service is out of reach (or its lists keep failing: `waiting` says how): every tracked job shows what
 * it waits for.
 */
export function markTrackedOffline(
  store: JobStore,
  service: string,
  waiting: Pick<Waiting, 'code' | 'message'> = { code: 'offline', message: 'waiting for the network' },
): void {
  for (const job of store.leases.tracking(service)) {
    if (job.waiting_code === waiting.code && job.waiting === waiting.message) continue;
    try {
      transition(store, job.id, 'tracked', { type: 'halt', waiting });
    } catch {
      /* changed meanwhile */
    }
  }
}
