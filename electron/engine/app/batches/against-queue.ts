import type { DoneBefore } from '../../../../shared/contract/batches';
import { creditsFor } from '../../../../shared/credits';
import { existsSync } from 'node:fs';
import type { JobRow, JobStore, NewJob } from '../../db/jobs';
import { retryPays } from '../../jobs/life-rules';
import { eachInSlices, lookInChunks, TimeSlices } from '../time-slices';

/** Where each planned job stands against the queue: new, already queued, failed before, or already dubbed. */
export interface Sorted {
  fresh: NewJob[];
  queued: number[];
  /**
   * Failed jobs, and canceled ones holding a dub the service made: retried, not added again. `pays`: the
   * retry makes a dub (see `retryPays`); `charged`: its dub's charge is recorded.
   */
  failed: { id: number; job: NewJob; pays: boolean; charged: boolean }[];
  done: DoneBefore[];
  /** The planned jobs behind `queued`, in its order. */
  queuedJobs: NewJob[];
  /** For each copy among `fresh`: the name of the file whose dub it takes. */
  copyOf: Map<NewJob, string>;
}

/**
 * The same dub: same source content, target, source language and quality (where it goes does not matter).
 * Content is the file's hash where both have one; jobs from before hashes go by size and modification time.
 */
function sameDub(row: JobRow, job: NewJob): boolean {
  if (row.source_lang !== job.source_lang || row.studio !== job.studio) return false;
  // Another audio track of the same file is another dub; the same track, however it was named, is not.
  if (row.audio_track !== (job.audio_track ?? 'first')) return false;
  if (row.source_hash && job.source_hash) return row.source_hash === job.source_hash;
  return (
    row.source_bytes === job.source_bytes &&
    (job.source_kind === 'url' || row.source_mtime === null || row.source_mtime === job.source_mtime)
  );
}

/**
 * Sorts a batch against the queue. Asynchronous only to give the event loop its turns: a batch of 100,000
 * jobs takes a second or more, sliced (see `TimeSlices`).
 */
export async function sortAgainstQueue(
  store: JobStore,
  jobs: readonly NewJob[],
  again: boolean,
  slices = new TimeSlices(),
): Promise<Sorted> {
  const out: Sorted = { fresh: [], queued: [], failed: [], done: [], queuedJobs: [], copyOf: new Map() };
  /** Content already planned in this batch, and the name of its first file. */
  const batchContents = new Map<string, string>();
  const copy = (job: NewJob, of: string) => {
    const reused = { ...job, reuse_results: 1 };
    out.copyOf.set(reused, of);
    out.fresh.push(reused);
  };
  // A few queries per thousand sources, not a few per job: 100,000 jobs are 20,000 sources.
  const sourceSet = new Set<string>();
  const hashSet = new Set<string>();
  await eachInSlices(jobs, slices, (j) => {
    sourceSet.add(j.source);
    if (j.source_hash) hashSet.add(j.source_hash);
  });
  const sources = [...sourceSet];
  // A source's dub into a language, of one of its audio tracks (`first` where none was chosen).
  const key = (source: string, lang: string, track = 'first') => `${lang}\u0000${track}\u0000${source}`;
  const live = new Map(
    (await lookInChunks(sources, slices, (c) => store.reads.liveOf(c))).map((r) => [
      key(r.source, r.dest_lang, r.audio_track),
      r,
    ]),
  );
  // A canceled job holding a dub the service made (or may have: its create was under way): retried.
  const canceled = new Map<string, JobRow>();
  if (!again)
    for (const r of await lookInChunks(sources, slices, (c) => store.canceledCreates.holdingDubs(c)))
      if (!canceled.has(key(r.source, r.dest_lang, r.audio_track)))
        canceled.set(key(r.source, r.dest_lang, r.audio_track), r);
  const completed = new Map<string, JobRow[]>();
  const remember = (k: string, r: JobRow) => {
    const list = completed.get(k);
    if (list) list.push(r);
    else completed.set(k, [r]);
  };
  // What is being dubbed now, by content, language, source language and quality.
  const dubKey = (d: Pick<NewJob, 'dest_lang' | 'source_lang' | 'studio' | 'audio_track'>, hash: string) =>
    key(hash, `${d.dest_lang}\u0000${d.source_lang}\u0000${d.studio}`, d.audio_track ?? 'first');
  /** The dubs being made now, and the name of the file each is made of. */
  const carried = new Map<string, string>();
  if (!again) {
    for (const r of await lookInChunks(sources, slices, (c) => store.reads.completedOf(c)))
      remember(key(r.source, r.dest_lang, r.audio_track), r);
    // The same content under another name (a copy, a file moved): the same source, already paid for.
    const hashes = [...hashSet];
    for (const r of await lookInChunks(hashes, slices, (c) => store.reads.completedOfHashes(c)))
      if (r.source_hash) remember(key(`#${r.source_hash}`, r.dest_lang, r.audio_track), r);
    for (const c of await lookInChunks(hashes, slices, (h) => store.reads.carriersOfHashes(h)))
      carried.set(dubKey(c, c.source_hash), c.source_name);
  }
  for (const job of jobs) {
    if (slices.due) await slices.breathe();
    const k = key(job.source, job.dest_lang, job.audio_track);
    const liveJob = live.get(k);
    if (liveJob) {
      if (liveJob.state === 'failed') out.failed.push(retried(liveJob, job));
      else {
        out.queued.push(liveJob.id);
        out.queuedJobs.push(job);
      }
      continue;
    }
    const before =
      completed.get(k)?.find((r) => sameDub(r, job)) ??
      (job.source_hash
        ? completed
            .get(key(`#${job.source_hash}`, job.dest_lang, job.audio_track))
            ?.find((r) => sameDub(r, job))
        : undefined);
    if (before && wantsOwnNames(store, before, job)) {
      // A copy under a new name: its own result names, linked from the dub already made, at no charge.
      copy(job, before.source_name);
      continue;
    }
    const held = canceled.get(k);
    if (!before && held && sameDub(held, job)) {
      out.failed.push(retried(held, job));
      continue;
    }
    if (before) {
      out.done.push({
        jobId: before.id,
        source: job.source,
        destLang: job.dest_lang,
        outputs: store.outputs
          .of(before.id)
          .filter((o) => o.done)
          .map((o) => o.path),
      });
      continue;
    }
    // A second file of the same content (in this batch, or being dubbed already): dubbed once, linked here.
    const content = job.source_hash ? dubKey(job, job.source_hash) : null;
    const twin = again || content === null ? undefined : (batchContents.get(content) ?? carried.get(content));
    if (content !== null && !again && !batchContents.has(content))
      batchContents.set(content, job.source_name);
    if (twin !== undefined) copy(job, twin);
    else out.fresh.push(job);
  }
  return out;
}

/**
 * Whether a job of content dubbed before gets results of its own: it would name them differently (another
 * file name, folder or naming), and the results it would copy are all still on disk. Else it is reported as
 * already done (with the files gone named as such: `--again` dubs it again).
 */
function wantsOwnNames(store: JobStore, before: JobRow, job: NewJob): boolean {
  if (before.source === job.source && before.out_dir === job.out_dir && before.naming === job.naming)
    return false;
  const outputs = store.outputs.of(before.id).filter((o) => o.done);
  return outputs.length > 0 && outputs.every((o) => existsSync(o.path));
}

/** What a batch costs: a copy (`reuse_results`) costs nothing, its content is dubbed once. */
export function creditsOf(jobs: readonly Pick<NewJob, 'duration' | 'studio' | 'reuse_results'>[]): {
  credits: number;
  unknown: number;
} {
  let credits = 0;
  let unknown = 0;
  for (const j of jobs) {
    if (j.reuse_results) continue;
    if (j.duration === null) unknown++;
    else credits += creditsFor(j.duration, j.studio === 1);
  }
  return { credits, unknown };
}

const retried = (row: JobRow, job: NewJob): Sorted['failed'][number] => ({
  id: row.id,
  job,
  pays: retryPays(row),
  charged: row.credits_charged !== null,
});

/**
 * The jobs a batch will pay for: new ones, and retried ones that make a dub (a retry of a dub the service
 * made only fetches it: its one charge is the service's already, recorded or to come).
 */
export function toBePaid(sorted: Sorted): NewJob[] {
  return [...sorted.fresh, ...sorted.failed.filter((f) => f.pays).map((f) => f.job)];
}
