import type { JobRow, JobStore } from '../db/jobs';
import type { BalanceCache } from './account/balance';
import type { EventHub } from './event-hub';
import type { JobViews } from './queue/job-views';
import type { TransferMeters } from './queue/meters';

export interface JobEventsDeps {
  store: JobStore;
  hub: EventHub;
  meters: TransferMeters;
  views: JobViews;
  balance: Pick<BalanceCache, 'charged'>;
  totals: { jobChanged(row: JobRow): void; schedule(): void };
  watch: { jobChanged(row: JobRow): void; jobsChanged(): void };
}

/** What follows when a job changes: its meter, the pace, the balance, its event, its folder's counts, the totals. */
export class JobEvents {
  constructor(private readonly deps: JobEventsDeps) {}

  changed(row: JobRow): void {
    const { meters, totals, hub } = this.deps;
    if (row.state !== 'uploading' && row.state !== 'downloading') meters.forget(row.id);
    totals.jobChanged(row);
    // The service charges when a dub completes (and may for a failure): its balance is read again.
    if (row.credits_charged !== null || row.state === 'failed' || row.state === 'canceled')
      this.deps.balance.charged();
    if (hub.size > 0) hub.emit({ type: 'job', job: this.deps.views.view(row) });
    this.deps.watch.jobChanged(row);
    totals.schedule();
  }

  /** The job's view to the faces (when any listens). */
  emitJob(id: number): void {
    if (this.deps.hub.size === 0) return;
    const row = this.deps.store.get(id);
    if (row) this.deps.hub.emit({ type: 'job', job: this.deps.views.view(row) });
  }

  /** Too many jobs changed to send each, or some left the list: the faces load the list again. */
  listChanged(removed: number[] = []): void {
    this.deps.hub.emit({ type: 'jobs-changed', removed });
    this.deps.watch.jobsChanged();
  }
}
