import type { Estimate } from '../../../shared/contract/batches';

export interface EstimateTotals {
  /** Files that will be queued (no problem). */
  goodFiles: number;
  languages: number;
  jobs: number;
  credits: number;
  /** Pairs of file and language not added: already dubbed (unless again) or already in the queue. */
  alreadyDone: number;
  alreadyQueued: number;
  /** Credits the queue has committed already (its jobs not yet charged), spent before this batch. */
  committed: number;
  /** Balance after the queue and this batch; null when the balance is unknown; below 0 when short. */
  after: number | null;
  /** Credits beyond the balance; 0 when it fits. */
  overBy: number;
}

/**
 * What the summary line shows. With `again`, the pairs already dubbed are queued and paid again, so they
 * join the count and the credits (each at its file's price per language). The balance is the service's;
 * what the queue already committed comes off it before this batch does.
 */
export function estimateTotals(estimate: Estimate, again: boolean, committed = 0): EstimateTotals {
  let jobs = estimate.jobs;
  let credits = estimate.credits;
  if (again) {
    const price = new Map(estimate.files.map((f) => [f.input, f.creditsPerLanguage]));
    for (const d of estimate.alreadyDone) {
      jobs++;
      credits += price.get(d.source) ?? 0;
    }
  }
  const after = estimate.balance === null ? null : estimate.balance - committed - credits;
  return {
    goodFiles: estimate.files.filter((f) => f.problem === null).length,
    languages: estimate.languages.length,
    jobs,
    credits,
    alreadyDone: again ? 0 : estimate.alreadyDone.length,
    alreadyQueued: estimate.alreadyQueued.length,
    committed,
    after,
    overBy: after !== null && after < 0 ? -after : 0,
  };
}

/** "2 files × 2 languages = 4 dubs", and what was left out when some pairs are done or queued already. */
export function batchWords(t: EstimateTotals, plural: (n: number, one: string) => string): string {
  const head = `${plural(t.goodFiles, 'file')} × ${plural(t.languages, 'language')}`;
  const skipped = [
    t.alreadyDone > 0 ? `${t.alreadyDone} already done` : null,
    t.alreadyQueued > 0 ? `${t.alreadyQueued} already queued` : null,
  ].filter((w) => w !== null);
  if (skipped.length === 0) return `${head} = ${plural(t.jobs, 'dub')}`;
  if (t.jobs === 0) return `${head}: ${skipped.join(', ')}; nothing new to dub`;
  return `${head} = ${plural(t.jobs, 'new dub')} (${skipped.join(', ')})`;
}
