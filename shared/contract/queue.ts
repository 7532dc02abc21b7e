import { z } from 'zod';
import { JOB_STATES, type JobState } from './jobs';

export const QueuePauseSchema = z.object({
  reason: z.enum(['user', 'credits', 'auth']),
  message: z.string(),
});

/** The whole queue at a glance: what the header, the sidebar and the banners show. */
export const QueueTotalsSchema = z.object({
  counts: z.record(z.enum(JOB_STATES), z.number().int()),
  total: z.number().int(),
  /** Jobs in the history: cleared from the live list or aged out of it (`counts` and `total` leave them out). */
  history: z.number().int(),
  /** Jobs not yet completed, failed or canceled. */
  left: z.number().int(),
  /** Sum over the transfers running now. */
  bytesPerSecond: z.number().nullable(),
  /** Best guess of the time until the queue drains; null when there is nothing to go on. */
  etaSeconds: z.number().nullable(),
  /**
   * Estimated credits of jobs the service has not charged yet (queued, uploading, in its queue, processing):
   * what the queue will still spend. The service charges when a dub completes.
   */
  creditsCommitted: z.number(),
  /** Credits charged so far by jobs in the queue. */
  creditsCharged: z.number(),
  /** The service's balance as it last told it (read again after each job ends); null when never read. */
  balance: z.number().nullable(),
  /** How far the committed credits go beyond the balance (0 when they fit); null without a balance. */
  creditsShort: z.number().nullable(),
  /** Set while the service cannot be reached: jobs will resume by themselves. */
  offline: z.string().nullable(),
  /**
   * Set while the disk under the data folder is full ("disk full: free N MiB in DIR"): nothing can be
   * recorded, so the work waits; it goes on by itself once there is room.
   */
  storageFull: z.string().nullable().default(null),
  /**
   * Set while a package waits for room on its output folder's disk ("disk full: free N MiB in DIR"): it is
   * made by itself once there is room, at no charge.
   */
  packageDiskFull: z.string().nullable().default(null),
  paused: QueuePauseSchema.nullable(),
  /** A worker (this process or another) is working the queue. */
  running: z.boolean(),
  /** Jobs that were mid-flight when the last run stopped uncleanly and resumed in this one. */
  resumedAfterCrash: z.number().int(),
});
export type QueueTotals = z.infer<typeof QueueTotalsSchema>;

export function emptyCounts(): Record<JobState, number> {
  return Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
}

/** Where moved jobs go in the queue's order. */
export const MoveTargetSchema = z.union([
  z.literal('top'),
  z.literal('bottom'),
  z.object({ before: z.number().int().min(1) }).strict(),
]);
export type MoveTarget = z.infer<typeof MoveTargetSchema>;

export const MoveRequestSchema = z
  .object({
    ids: z.array(z.number().int().min(1)).min(1, 'name at least one job').max(100_000),
    to: MoveTargetSchema,
  })
  .strict();

export const MoveResultSchema = z.object({
  /** Jobs moved, in their new order. */
  moved: z.array(z.number().int()),
  /** Jobs left where they were: already sending their file, at the service, or finished. */
  stayed: z.array(z.number().int()),
  /** Ids that are no job of the queue. */
  missing: z.array(z.number().int()),
});
export type MoveResult = z.infer<typeof MoveResultSchema>;
