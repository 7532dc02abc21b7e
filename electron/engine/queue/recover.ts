import type { JobStore } from '../db/jobs';
import { transition } from '../jobs/life';
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

/** The service is out of reach: every tracked job shows it is waiting for the network. */
export function markTrackedOffline(store: JobStore, service: string): void {
  for (const job of store.leases.tracking(service)) {
    if (job.waiting_code === 'offline') continue;
    try {
      transition(store, job.id, 'tracked', {
        type: 'halt',
        waiting: { code: 'offline', message: 'waiting for the network' },
      });
    } catch {
      /* changed meanwhile */
    }
  }
}
