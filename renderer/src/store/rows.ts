import type { JobView, SourceRow } from '../../../shared/contract/jobs';
import { PAGE_SIZE } from './queue';

/** The row at a list index, when its page is loaded. */
export function rowAt(
  pages: Readonly<Record<number, readonly SourceRow[]>>,
  index: number,
): SourceRow | null {
  return pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE] ?? null;
}

/** A loaded job by id (the side panel and events look jobs up here before asking the engine). */
export function loadedJob(pages: Readonly<Record<number, readonly SourceRow[]>>, id: number): JobView | null {
  for (const rows of Object.values(pages))
    for (const row of rows) for (const job of row.jobs) if (job.id === id) return job;
  return null;
}
