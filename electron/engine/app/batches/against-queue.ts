import type { DoneBefore } from '../../../../shared/contract/batches';
import { creditsFor } from '../../../../shared/credits';
import type { JobRow, JobStore, NewJob } from '../../db/jobs';

/** Where each planned job stands against the queue: new, already queued, failed before, or already dubbed. */
export interface Sorted {
  fresh: NewJob[];
  queued: number[];
  failed: { id: number; job: NewJob }[];
  done: DoneBefore[];
}

/**
 * The same dub: same source content, target, source language and quality (where it goes does not matter).
 * Content is the file's hash where both have one; jobs from before hashes go by size and modification time.
 */
function sameDub(row: JobRow, job: NewJob): boolean {
  if (row.source_lang !== job.source_lang || row.studio !== job.studio) return false;
  if (row.source_hash && job.source_hash) return row.source_hash === job.source_hash;
  return (
    row.source_bytes === job.source_bytes &&
    (job.source_kind === 'url' || row.source_mtime === null || row.source_mtime === job.source_mtime)
  );
}

export function sortAgainstQueue(store: JobStore, jobs: readonly NewJob[], again: boolean): Sorted {
  const out: Sorted = { fresh: [], queued: [], failed: [], done: [] };
  // Two queries for the whole batch, not two per job: 10,000 jobs are 2,000 sources.
  const sources = [...new Set(jobs.map((j) => j.source))];
  const key = (source: string, lang: string) => `${lang}\u0000${source}`;
  const live = new Map(store.liveOf(sources).map((r) => [key(r.source, r.dest_lang), r]));
  const completed = new Map<string, JobRow[]>();
  const remember = (k: string, r: JobRow) => {
    const list = completed.get(k);
    if (list) list.push(r);
    else completed.set(k, [r]);
  };
  if (!again) {
    for (const r of store.completedOf(sources)) remember(key(r.source, r.dest_lang), r);
    // The same content under another name (a copy, a file moved): the same source, already paid for.
    const hashes = [...new Set(jobs.flatMap((j) => (j.source_hash ? [j.source_hash] : [])))];
    for (const r of store.completedOfHashes(hashes))
      if (r.source_hash) remember(key(`#${r.source_hash}`, r.dest_lang), r);
  }
  for (const job of jobs) {
    const k = key(job.source, job.dest_lang);
    const liveJob = live.get(k);
    if (liveJob) {
      if (liveJob.state === 'failed') out.failed.push({ id: liveJob.id, job });
      else out.queued.push(liveJob.id);
      continue;
    }
    const before =
      completed.get(k)?.find((r) => sameDub(r, job)) ??
      (job.source_hash
        ? completed.get(key(`#${job.source_hash}`, job.dest_lang))?.find((r) => sameDub(r, job))
        : undefined);
    if (before) {
      out.done.push({
        jobId: before.id,
        source: job.source,
        destLang: job.dest_lang,
        outputs: store
          .outputs(before.id)
          .filter((o) => o.done)
          .map((o) => o.path),
      });
      continue;
    }
    out.fresh.push(job);
  }
  return out;
}

export function creditsOf(jobs: readonly Pick<NewJob, 'duration' | 'studio'>[]): {
  credits: number;
  unknown: number;
} {
  let credits = 0;
  let unknown = 0;
  for (const j of jobs) {
    if (j.duration === null) unknown++;
    else credits += creditsFor(j.duration, j.studio === 1);
  }
  return { credits, unknown };
}

/** The jobs a batch will pay for: new ones, and failed ones the service has not charged yet (a retry of a
 * charged dub only fetches its results again). */
export function toBePaid(store: JobStore, sorted: Sorted): NewJob[] {
  const unpaid = sorted.failed.filter((f) => (store.get(f.id)?.credits_charged ?? null) === null);
  return [...sorted.fresh, ...unpaid.map((f) => f.job)];
}
