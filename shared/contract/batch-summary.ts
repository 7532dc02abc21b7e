import { z } from 'zod';
import { isTerminal, JobViewSchema, type JobView } from './jobs';
import { QueueTotalsSchema, type QueueTotals } from './queue';

export const RUN_OUTCOMES = [
  'done',
  'aborted',
  'auth',
  'credits',
  'paused',
  'unreachable',
  'other-dubdesk',
] as const;
export type RunOutcomeName = (typeof RUN_OUTCOMES)[number];

/** What one run or batch did to its jobs (a `dub` batch, or every job for `run`), compared before and after. */
export const BatchTallySchema = z
  .object({
    /** Jobs that reached `completed` / `failed` during this run. */
    completed: z.number().int(),
    failed: z.number().int(),
    /** Jobs not completed, failed or canceled when it ended (queued, paused, working). */
    open: z.number().int(),
    /** Of those, jobs paused one by one (`dubdesk pause ID`). */
    paused: z.number().int(),
    /** Credits the service charged during this run, and what those dubs were estimated at. */
    creditsCharged: z.number(),
    creditsEstimated: z.number(),
  })
  .strict();
export type BatchTally = z.infer<typeof BatchTallySchema>;

/**
 * A batch's summary: what `run --json` prints, and what a when-done command reads on its standard input
 * (from the CLI and from the app alike).
 */
export const BatchSummarySchema = z
  .object({
    outcome: z.enum(RUN_OUTCOMES),
    /** The exit code `dubdesk run` gives for it (see `dubdesk --help`): 0 done, 1 a job failed. */
    exitCode: z.number().int(),
    tally: BatchTallySchema,
    /** The whole queue after the run. */
    queue: QueueTotalsSchema,
    /** The run's jobs after it: the batch's for `dub`, every job for `run`. */
    jobs: z.array(JobViewSchema),
  })
  .strict();
export type BatchSummary = z.infer<typeof BatchSummarySchema>;

/** What a run did to its jobs, compared before and after, so the figures are this run's alone. */
export function tally(
  before: readonly JobView[],
  after: readonly JobView[],
): { counts: BatchTally; failedJobs: JobView[] } {
  const was = new Map(before.map((j) => [j.id, j]));
  const moved = (s: JobView['state']) => after.filter((j) => j.state === s && was.get(j.id)?.state !== s);
  const failedJobs = moved('failed');
  // Charged when the service completed the dub, downloaded or not; the estimate of those same dubs beside it.
  const paid = after.filter((j) => (j.creditsCharged ?? 0) !== (was.get(j.id)?.creditsCharged ?? 0));
  const counts = {
    completed: moved('completed').length,
    failed: failedJobs.length,
    open: after.filter((j) => !isTerminal(j.state)).length,
    paused: after.filter((j) => j.state === 'paused').length,
    creditsCharged: paid.reduce(
      (n, j) => n + (j.creditsCharged ?? 0) - (was.get(j.id)?.creditsCharged ?? 0),
      0,
    ),
    creditsEstimated: paid.reduce((n, j) => n + (j.estimatedCredits ?? 0), 0),
  };
  return { counts, failedJobs };
}

/** The summary of a batch that drained: its jobs as they were when it began and as they are now. */
export function drainedSummary(
  before: readonly JobView[],
  after: readonly JobView[],
  queue: QueueTotals,
): BatchSummary {
  const { counts } = tally(before, after);
  return { outcome: 'done', exitCode: counts.failed > 0 ? 1 : 0, tally: counts, queue, jobs: [...after] };
}
