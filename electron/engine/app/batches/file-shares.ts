import type { FileEstimate, FreeDub } from '../../../../shared/contract/batches';
import { creditsFor } from '../../../../shared/credits';
import type { NewJob } from '../../db/jobs';
import type { Sorted } from './against-queue';

/**
 * Each file's share of the batch's total: what its paid jobs cost, and its languages that cost nothing
 * (a copy, already dubbed, already queued, a dub already paid, or made and fetched by a retry), so the
 * rows add up to the total.
 */
export function withShares(
  files: readonly FileEstimate[],
  sorted: Sorted,
  paid: readonly NewJob[],
): FileEstimate[] {
  const credits = new Map<string, number | null>();
  const free = new Map<string, FreeDub[]>();
  const addFree = (source: string, dub: FreeDub) => free.set(source, [...(free.get(source) ?? []), dub]);
  for (const job of paid) {
    if (job.reuse_results) continue;
    const before = credits.get(job.source) ?? 0;
    credits.set(
      job.source,
      before === null || job.duration === null ? null : before + creditsFor(job.duration, job.studio === 1),
    );
  }
  for (const [job, of] of sorted.copyOf) addFree(job.source, { lang: job.dest_lang, why: 'copy', of });
  for (const d of sorted.done) addFree(d.source, { lang: d.destLang, why: 'done', of: null });
  for (const job of sorted.queuedJobs) addFree(job.source, { lang: job.dest_lang, why: 'queued', of: null });
  for (const f of sorted.failed)
    if (!f.pays) addFree(f.job.source, { lang: f.job.dest_lang, why: f.charged ? 'paid' : 'made', of: null });
  return files.map((f) =>
    f.problem
      ? f
      : {
          ...f,
          credits: credits.has(f.input) ? (credits.get(f.input) ?? null) : 0,
          free: free.get(f.input) ?? [],
        },
  );
}
