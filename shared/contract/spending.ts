import { z } from 'zod';

/**
 * One charged job, as the service charged it: the credits it reported when the dub completed (its measured
 * length, twice for studio quality), never the estimate. Canceled or paused jobs whose dub completed anyway
 * were charged too, and are here.
 */
export const SpendRowSchema = z.object({
  jobId: z.number().int(),
  /** ISO time the charge was recorded. */
  chargedAt: z.string(),
  source: z.string(),
  sourceName: z.string(),
  /** The watched folder the job came from, else the source's own folder (a link's host). */
  folder: z.string(),
  language: z.string(),
  studio: z.boolean(),
  credits: z.number(),
  estimatedCredits: z.number().nullable(),
  /** The batch it was added with (one `add`, one Add sheet, one watched folder's turn); null before batches were kept. */
  batch: z.number().int().nullable(),
});
export type SpendRow = z.infer<typeof SpendRowSchema>;

export const SPEND_GROUPS = ['job', 'day', 'month', 'batch', 'folder', 'language'] as const;
export const SpendGroupSchema = z.enum(SPEND_GROUPS);
export type SpendGroup = z.infer<typeof SpendGroupSchema>;

export const SpendingRequestSchema = z
  .object({
    /** Charges from this day on (YYYY-MM-DD, local), or from this ISO time. */
    since: z.string().max(40).nullable().default(null),
  })
  .strict();

/** The monthly budget from the settings, what this calendar month (local) has charged and what the queue will. */
export const BudgetViewSchema = z.object({
  credits: z.number(),
  spentThisMonth: z.number(),
  committed: z.number(),
});

export const SpendingSchema = z.object({
  rows: z.array(SpendRowSchema),
  /** Null: no budget. */
  budget: BudgetViewSchema.nullable(),
});
export type Spending = z.infer<typeof SpendingSchema>;

/** A line of the report grouped by one key: the key as people read it, its jobs and its credits. */
export interface SpendLine {
  key: string;
  jobs: number;
  credits: number;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The local calendar day of an ISO time, `2026-11-28`. */
export function localDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The local time of an ISO time as a report writes it, `2026-11-28 14:03`. */
export function localTime(iso: string): string {
  const d = new Date(iso);
  return `${localDay(iso)} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export const localMonth = (iso: string): string => localDay(iso).slice(0, 7);

const keyOf: Record<Exclude<SpendGroup, 'job'>, (r: SpendRow) => string> = {
  day: (r) => localDay(r.chargedAt),
  month: (r) => localMonth(r.chargedAt),
  batch: (r) => (r.batch === null ? 'earlier' : `#${r.batch}`),
  folder: (r) => r.folder,
  language: (r) => r.language,
};

/**
 * The report grouped by `by`: days and months oldest first (a chart reads left to right), batches by
 * number, folders and languages by credits spent, most first.
 */
export function groupSpending(rows: readonly SpendRow[], by: Exclude<SpendGroup, 'job'>): SpendLine[] {
  const lines = new Map<string, SpendLine>();
  for (const r of rows) {
    const key = keyOf[by](r);
    const line = lines.get(key) ?? { key, jobs: 0, credits: 0 };
    line.jobs++;
    line.credits += r.credits;
    lines.set(key, line);
  }
  const out = [...lines.values()];
  if (by === 'day' || by === 'month') return out.sort((a, b) => a.key.localeCompare(b.key));
  if (by === 'batch')
    return out.sort((a, b) =>
      a.key === 'earlier' ? -1 : b.key === 'earlier' ? 1 : Number(a.key.slice(1)) - Number(b.key.slice(1)),
    );
  return out.sort((a, b) => b.credits - a.credits || a.key.localeCompare(b.key));
}

/** Rows charged at or after `since`: a day (`2026-11-01`, from its local midnight) or an ISO time. */
export function chargedSince(rows: readonly SpendRow[], since: string | null): SpendRow[] {
  if (since === null) return [...rows];
  const from = sinceTime(since);
  return rows.filter((r) => new Date(r.chargedAt).getTime() >= from);
}

/** The moment a `--since` means, or NaN when it is not a date. */
export function sinceTime(since: string): number {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(since.trim());
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const t = new Date(y, m - 1, d);
    return t.getMonth() === m - 1 && t.getDate() === d ? t.getTime() : Number.NaN;
  }
  return /^\d{4}-\d{2}-\d{2}T/.test(since) ? new Date(since).getTime() : Number.NaN;
}

export const totalCredits = (rows: readonly { credits: number }[]): number =>
  rows.reduce((n, r) => n + r.credits, 0);

/** This calendar month's charges (local), for the budget. */
export function spentInMonthOf(rows: readonly SpendRow[], now: Date): number {
  const month = localMonth(now.toISOString());
  return totalCredits(rows.filter((r) => localMonth(r.chargedAt) === month));
}

/**
 * Whether a batch of `credits` goes past the monthly budget, counting what this month charged and what the
 * queue will still charge. No budget: never.
 */
export function overBudget(
  budget: Spending['budget'],
  credits: number,
): { over: boolean; left: number | null } {
  if (!budget) return { over: false, left: null };
  const left = budget.credits - budget.spentThisMonth - budget.committed;
  return { over: credits > left, left };
}

/**
 * Why `credits` more go past the budget, every number said: "past the monthly budget of 5: with the 0 spent
 * this month that is 6, 1 over" (what is queued and not yet charged counts too).
 */
export function pastBudgetWords(
  budget: z.infer<typeof BudgetViewSchema>,
  credits: number,
  n: (credits: number) => string = String,
): string {
  const { spentThisMonth, committed } = budget;
  const total = spentThisMonth + committed + credits;
  const queued = committed ? ` and the ${n(committed)} queued` : '';
  return `past the monthly budget of ${n(budget.credits)}: with the ${n(spentThisMonth)} spent this month${queued} that is ${n(total)}, ${n(total - budget.credits)} over`;
}
