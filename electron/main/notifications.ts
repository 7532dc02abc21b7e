/**
 * Native notifications: one when a batch drains ("24 done, 3 failed"), never one per finished job; and
 * one when a job fails while the window is not in front (the first few of a batch). A click shows the job.
 */
import type { JobState, JobView } from '../../shared/contract/jobs';
import type { QueueTotals } from '../../shared/contract/queue';
import { stateWords } from '../../shared/state-words';

export interface Notice {
  title: string;
  body: string;
  /** The job a click opens; null opens the window only. */
  jobId: number | null;
}

/** Failures told one by one in a batch; the rest are counted in the batch's summary. */
export const MAX_FAILURE_NOTICES = 3;

export class BatchNotifier {
  /** `notifyWhenDone` from the settings. */
  enabled = true;
  private inBatch = false;
  private readonly done = new Set<number>();
  private readonly failed = new Set<number>();
  private readonly last = new Map<number, JobState>();
  private failureNotices = 0;

  constructor(private readonly notify: (notice: Notice) => void) {}

  job(job: JobView, windowInFront: boolean): void {
    const before = this.last.get(job.id);
    this.last.set(job.id, job.state);
    if (job.state === before) return;
    if (job.state === 'completed') {
      this.inBatch = true;
      this.done.add(job.id);
      this.failed.delete(job.id);
    } else if (job.state === 'failed') {
      this.inBatch = true;
      this.failed.add(job.id);
      if (this.enabled && !windowInFront && this.failureNotices < MAX_FAILURE_NOTICES) {
        this.failureNotices++;
        this.notify({
          title: `${job.sourceName} → ${job.destLang} failed`,
          body: job.error
            ? `${job.error.message}${job.error.remedy ? `. ${job.error.remedy}` : ''}`
            : 'It can be retried.',
          jobId: job.id,
        });
      }
    } else if (job.state !== 'canceled' && job.state !== 'paused') {
      this.inBatch = true;
      if (before === 'failed') this.failed.delete(job.id);
    }
  }

  totals(t: QueueTotals): void {
    if (t.left > 0) {
      this.inBatch = true;
      return;
    }
    if (!this.inBatch) return;
    const done = this.done.size;
    const failed = this.failed.size;
    const onlyFailure = failed === 1 ? [...this.failed][0] : undefined;
    this.inBatch = false;
    this.done.clear();
    this.failed.clear();
    this.last.clear();
    this.failureNotices = 0;
    if (!this.enabled || done + failed === 0) return;
    this.notify({
      title: failed ? 'Batch finished with failures' : 'Batch finished',
      body: `${done} ${stateWords('completed')}${failed ? `, ${failed} ${stateWords('failed')}` : ''}`,
      jobId: onlyFailure ?? null,
    });
  }
}
