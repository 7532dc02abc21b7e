import type { JobStore } from '../../db/jobs';
import type { Db } from '../../db/open';
import { enqueueUnlessLive, transition } from '../../jobs/life';
import type { Sorted } from './against-queue';

/** Jobs inserted per transaction by `add`. */
const ADD_CHUNK = 250;

export interface Enqueued {
  added: number[];
  retried: number[];
  /** What another add (a second face, a watched folder) queued while this one was asking the balance. */
  queuedMeanwhile: number[];
}

/**
 * Queues a sorted batch: failed jobs are retried, new ones inserted in transactions of 250 jobs, letting
 * the event loop breathe between them, so a face stays responsive while 10,000 jobs go in. A job another
 * add queued in between is not added twice (the insert checks, in the same statement), so adding the
 * batch again after a crash loses nothing.
 */
export async function enqueueBatch(db: Db, store: JobStore, sorted: Sorted): Promise<Enqueued> {
  const out: Enqueued = { added: [], retried: [], queuedMeanwhile: [] };
  db.transaction(() => {
    for (const { id, job } of sorted.failed) {
      if (store.get(id)?.state !== 'failed') {
        out.queuedMeanwhile.push(id);
        continue;
      }
      // Adding a failed job again retries it; where its results go may change, what was dubbed may not.
      store.record(id, 'user', {
        outputs_wanted: job.outputs_wanted,
        out_dir: job.out_dir,
        naming: job.naming,
        upload_once: job.upload_once,
      });
      transition(store, id, 'user', { type: 'retry' });
      out.retried.push(id);
    }
  }).immediate();
  const now = Date.now();
  for (let i = 0; i < sorted.fresh.length; i += ADD_CHUNK) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    db.transaction(() => {
      for (const job of sorted.fresh.slice(i, i + ADD_CHUNK)) {
        const id = enqueueUnlessLive(store, job, now, false);
        if (id !== null) out.added.push(id);
        else {
          const live = store.live(job.source, job.dest_lang);
          if (live) out.queuedMeanwhile.push(live.id);
        }
      }
    }).immediate();
  }
  return out;
}
