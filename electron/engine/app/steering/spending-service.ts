import { dirname } from 'node:path';
import { DubdeskError } from '../../../../shared/contract/errors';
import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import { sinceTime, type Spending, type SpendRow } from '../../../../shared/contract/spending';
import type { ChargeRow } from '../../db/job-store/charges';
import type { JobStore } from '../../db/jobs';

export interface SpendingDeps {
  store: JobStore;
  /** The monthly budget from the settings (credits), or null. */
  monthlyBudget(): number | null;
  /** The service in use: its account's charges are the ones reported. */
  service(): string;
  now?: () => Date;
}

/** The folder a charge is filed under: its watched folder, else the source's own folder (a link's host). */
function folderOf(r: ChargeRow): string {
  if (r.folder) return r.folder;
  if (r.source_kind === 'url') {
    try {
      return new URL(r.source).host;
    } catch {
      return r.source;
    }
  }
  return dirname(r.source);
}

export function spendRow(r: ChargeRow): SpendRow {
  return {
    jobId: r.id,
    chargedAt: new Date(r.charged_at).toISOString(),
    source: r.source,
    sourceName: r.source_name,
    folder: folderOf(r),
    language: r.dest_lang,
    studio: r.studio === 1,
    credits: r.credits_charged,
    estimatedCredits: r.duration === null ? null : Math.ceil(r.duration) * (r.studio === 1 ? 2 : 1),
    batch: r.batch_id,
  };
}

/** The first moment of the local calendar month of `now`. */
const monthStart = (now: Date) => new Date(now.getFullYear(), now.getMonth(), 1).getTime();

/**
 * What was spent, from the charges the service reported (not the estimates), and the monthly budget: what
 * this month charged and what the queue will still charge count against it.
 */
export class SpendingService {
  constructor(private readonly deps: SpendingDeps) {}

  /** The budget as it stands now; null without one. */
  budget(): Spending['budget'] {
    const credits = this.deps.monthlyBudget();
    if (credits === null) return null;
    const from = monthStart(this.deps.now?.() ?? new Date());
    const spentThisMonth = this.deps.store.charges
      .since(from, this.deps.service())
      .reduce((n, r) => n + r.credits_charged, 0);
    return { credits, spentThisMonth, committed: this.deps.store.lists.creditSums().committed };
  }

  handlers(): Pick<DubdeskHandlers, 'spending'> {
    return {
      spending: ({ since }) => {
        const from = since === null ? 0 : sinceTime(since);
        if (Number.isNaN(from))
          throw new DubdeskError('bad-request', `${since} is not a date`, {
            remedy: 'Give a day such as 2026-11-01.',
            field: 'since',
          });
        return {
          rows: this.deps.store.charges.since(from, this.deps.service()).map(spendRow),
          budget: this.budget(),
        };
      },
    };
  }
}
