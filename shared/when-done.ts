import { z } from 'zod';

/**
 * What happens once the queue has nothing left to do: nothing, a notification, a command of the user's
 * (the batch's summary as JSON on its standard input), or the computer sleeps or shuts down after a
 * countdown that one click cancels.
 */
export const WHEN_DONE_ACTIONS = ['nothing', 'notify', 'command', 'sleep', 'shutdown'] as const;
export type WhenDoneAction = (typeof WHEN_DONE_ACTIONS)[number];

export const WhenDoneSchema = z.discriminatedUnion('action', [
  z.object({ action: z.enum(['nothing', 'notify', 'sleep', 'shutdown']) }).strict(),
  z
    .object({
      action: z.literal('command'),
      command: z.string().trim().min(1, 'the command is empty').max(4096),
    })
    .strict(),
]);
export type WhenDone = z.infer<typeof WhenDoneSchema>;

/** Sleep and shut down wait this long, showing a countdown, before they act. */
export const WHEN_DONE_COUNTDOWN_SECONDS = 60;

/** The actions that act on the computer itself: each waits out the countdown first. */
export const actsOnComputer = (w: WhenDone): boolean => w.action === 'sleep' || w.action === 'shutdown';

/** How far one watch of the queue is: whether a batch is under way (some job was open since the last drain). */
export interface DrainWatch {
  readonly batchOpen: boolean;
}

export const NO_BATCH: DrainWatch = { batchOpen: false };

/**
 * The one rule for "the batch is done", read by every face: fed each count of open jobs (not completed,
 * failed or canceled: a paused job is open, so is one waiting to retry), in order, it says `drained`
 * exactly once per batch, when the queue has no open job left after having had some. A job that ends while
 * others are open is never the end of the batch; a queue that was empty all along has no batch to end.
 */
export function watchDrain(watch: DrainWatch, openJobs: number): { watch: DrainWatch; drained: boolean } {
  if (openJobs > 0) return { watch: { batchOpen: true }, drained: false };
  return { watch: NO_BATCH, drained: watch.batchOpen };
}

/** What a face shows of the when-done choice: the choice, the countdown under way, what was done last. */
export const WhenDoneStateSchema = z.object({
  choice: WhenDoneSchema,
  /** Sleep or shut down is counting down: it acts at `endsAt` unless canceled or a job opens again. */
  countdown: z.object({ action: z.enum(['sleep', 'shutdown']), endsAt: z.string() }).nullable(),
  /** The last time a batch drained and what was done then ("ran …: exit code 0", "canceled"). */
  last: z.object({ at: z.string(), action: z.enum(WHEN_DONE_ACTIONS), outcome: z.string() }).nullable(),
});
export type WhenDoneState = z.infer<typeof WhenDoneStateSchema>;
