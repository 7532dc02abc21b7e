import { type JobStore, type NewJob } from '../../db/jobs';
import { dubKeyOf } from '../../db/job-store/same-content';
import { SMALL_FIRST_WINDOW } from '../../db/job-store/due';
import { enqueueManyUnlessLive, transition } from '../../jobs/life';
import { TimeSlices } from '../time-slices';
import type { Sorted } from './against-queue';

export interface Enqueued {
  added: number[];
  retried: number[];
  /** What another add (a second face, a watched folder) queued while this one was asking the balance. */
  queuedMeanwhile: number[];
}

/**
 * Queues a sorted batch: failed jobs are retried, new ones inserted in transactions of a few milliseconds
 * each, letting the event loop breathe between them, so a face stays responsive while 100,000 jobs go in. A job another
 * add queued in between is not added twice (the insert checks, in the same statement), so adding the
 * batch again after a crash loses nothing.
 */
export async function enqueueBatch(
  store: JobStore,
  sorted: Sorted,
  again: boolean,
  slices = new TimeSlices(),
): Promise<Enqueued> {
  // Commits do not checkpoint, nor statements merge the search index, meanwhile: inside a commit, the
  // WAL's copy into the database and its sync, inside a window's statement, FTS5's merge of 64 pages per
  // level made those turns the longest of the add. The writes checkpoint between their commits and merge
  // a step with each window or between windows (see writeInSlices).
  const release = store.checkpoints.hold();
  const releaseMerges = store.tx(() => store.searchMerges.hold());
  try {
    return await enqueueHeld(store, sorted, again, slices);
  } finally {
    store.tx(releaseMerges);
    release();
  }
}

async function enqueueHeld(
  store: JobStore,
  sorted: Sorted,
  again: boolean,
  slices: TimeSlices,
): Promise<Enqueued> {
  const out: Enqueued = { added: [], retried: [], queuedMeanwhile: [] };
  await writeInSlices(store, slices, sorted.failed, 1, ([{ id, job }]) => {
    const state = store.reads.get(id)?.state;
    if (state !== 'failed' && state !== 'canceled') {
      out.queuedMeanwhile.push(id);
      return;
    }
    // Adding a failed job again (or a canceled one holding its dub) retries it; where its results go may
    // change, what was dubbed may not.
    store.writes.record(id, 'user', {
      outputs_wanted: job.outputs_wanted,
      out_dir: job.out_dir,
      naming: job.naming,
      upload_once: job.upload_once,
      ...(job.deliver !== undefined ? { deliver: job.deliver } : {}),
    });
    transition(store, id, 'user', { type: 'retry' });
    out.retried.push(id);
  });
  const now = Date.now();
  // The queue's order: small files first, a window at a time (ids keep the batch's order, the places
  // within a window go smallest first), and the new jobs one batch for the spending report. Both given as
  // the rows go in, not by UPDATEs after: those rewrote every row again, each recomputing its source's
  // position in the list. A window is written whole in one transaction, so its places stay together.
  let batch: number | null = null;
  await writeInSlices(store, slices, sorted.fresh, SMALL_FIRST_WINDOW, (window) => {
    batch ??= store.charges.newBatch(now);
    const jobs = again ? window : payOnce(store, window);
    const ids = enqueueManyUnlessLive(store, jobs, now, false, { ranks: smallFirst(window), batch });
    ids.forEach((id, i) => {
      if (id !== null) out.added.push(id);
      else {
        const job = jobs[i] as NewJob;
        const live = store.reads.live(job.source, job.dest_lang, job.audio_track);
        if (live) out.queuedMeanwhile.push(live.id);
      }
    });
  });
  return out;
}

/**
 * Each job's rank in its window's order: smallest source first, a file's languages together, equal sizes
 * as they came. A large file waits for a bounded number of smaller ones, and the first result comes early.
 */
function smallFirst(window: readonly NewJob[]): number[] {
  const ranks = new Array<number>(window.length);
  window
    .map((job, at) => ({ bytes: job.source_bytes ?? Infinity, at }))
    .sort((a, b) => a.bytes - b.bytes || a.at - b.at)
    .forEach(({ at }, rank) => (ranks[at] = rank));
  return ranks;
}

/**
 * The batch was sorted against the queue before the balance was asked and in slices since: another add (a
 * double click, a second face, a watched folder) may have queued the same content under another name
 * meanwhile. Checked again in the insert's own write transaction, so that content is paid for once.
 */
function payOnce(store: JobStore, jobs: readonly NewJob[]): NewJob[] {
  const keys = jobs.map((j) =>
    !j.reuse_results && j.source_hash ? { ...j, source_hash: j.source_hash } : null,
  );
  const paid = store.sameContent.paidDubs(keys.filter((k) => k !== null));
  return jobs.map((j, i) => {
    const key = keys[i];
    return key && paid.has(dubKeyOf(key)) ? { ...j, reuse_results: 1 } : j;
  });
}

/** A merge step of the search index at least this long steps the rest of its batch in turns of its own. */
const CHEAP_STEP_MS = 1;

/**
 * `write` for each run of up to `size` items, in write transactions of one time slice each, the event
 * loop's turn between, and the WAL's checkpoints in turns of their own (the batch holds them). A run is
 * written whole (a window's places stay together), so a transaction takes another only while one more of
 * the same cost fits in the slice: taken once the slice was merely not yet over, a second window of 256
 * jobs doubled the turn. The search index's merge step ends the window's transaction while steps are
 * cheap (a small index: in a transaction of its own, each window was two commits and its pages went to
 * the WAL twice); once one was not (a big index: up to several ms, then the longest turn of the add), the
 * rest step in a transaction and a turn of their own.
 */
async function writeInSlices<T>(
  store: JobStore,
  slices: TimeSlices,
  items: readonly T[],
  size: number,
  write: (run: [T, ...T[]]) => void,
): Promise<void> {
  let stepApart = false;
  let i = 0;
  while (i < items.length) {
    if (slices.due) await slices.breathe();
    let stepped = false;
    store.tx(() => {
      let runMs: number;
      do {
        const started = performance.now();
        write(items.slice(i, i + size) as [T, ...T[]]);
        i += size;
        runMs = performance.now() - started;
      } while (i < items.length && slices.fits(runMs));
      if (stepApart) return;
      const started = performance.now();
      store.searchMerges.step();
      stepApart = performance.now() - started >= CHEAP_STEP_MS;
      stepped = true;
    });
    await slices.breathe();
    if (!stepped) {
      store.tx(() => store.searchMerges.step());
      await slices.breathe();
    }
    if (store.checkpoints.committed()) {
      store.checkpoints.run();
      await slices.breathe(); // the next write starts a turn of its own, not in the checkpoint's
    }
  }
}
