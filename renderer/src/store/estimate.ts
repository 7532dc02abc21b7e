import type { Estimate } from '../../../shared/contract/batches';

export interface EstimateTotals {
  /** Files that will be queued (no problem). */
  goodFiles: number;
  languages: number;
  jobs: number;
  credits: number;
  /** Balance after the batch; null when the balance is unknown. */
  after: number | null;
  /** Credits beyond the balance; 0 when it fits. */
  overBy: number;
}

/**
 * What the summary line shows. With `again`, the pairs already dubbed are queued and paid again, so they
 * join the count and the credits (each at its file's price per language).
 */
export function estimateTotals(estimate: Estimate, again: boolean): EstimateTotals {
  let jobs = estimate.jobs;
  let credits = estimate.credits;
  if (again) {
    const price = new Map(estimate.files.map((f) => [f.input, f.creditsPerLanguage]));
    for (const d of estimate.alreadyDone) {
      jobs++;
      credits += price.get(d.source) ?? 0;
    }
  }
  const after = estimate.balance === null ? null : estimate.balance - credits;
  return {
    goodFiles: estimate.files.filter((f) => f.problem === null).length,
    languages: estimate.languages.length,
    jobs,
    credits,
    after,
    overBy: after !== null && after < 0 ? -after : 0,
  };
}
