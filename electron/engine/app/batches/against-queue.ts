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

/** The same dub: same source content, target, source language and quality (where it goes does not matter). */
function sameDub(row: JobRow, job: NewJob): boolean {
  return (
    row.source_lang === job.source_lang &&
    row.studio === job.studio &&
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
  if (!again)
    for (const r of store.completedOf(sources)) {
      const k = key(r.source, r.dest_lang);
      const list = completed.get(k);
      if (list) list.push(r);
      else completed.set(k, [r]);
    }
  for (const job of jobs) {
    const k = key(job.source, job.dest_lang);
    const liveJob = live.get(k);
    if (liveJob) {
      if (liveJob.state === 'failed') out.failed.push({ id: liveJob.id, job });
      else out.queued.push(liveJob.id);
      continue;
    }
    const before = completed.get(k)?.find((r) => sameDub(r, job));
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
