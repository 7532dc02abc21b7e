import type { JobView } from '../../../../shared/contract/jobs';
import type { DubdeskHandlers } from '../../../../shared/contract/methods';

/** Every job of the live list, a page at a time. */
export async function liveJobs(listJobs: DubdeskHandlers['listJobs']): Promise<JobView[]> {
  const out: JobView[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await listJobs({ filter: {}, offset, limit: 500, order: 'added' });
    out.push(...page.jobs);
    if (out.length >= page.total || page.jobs.length === 0) return out;
  }
}
