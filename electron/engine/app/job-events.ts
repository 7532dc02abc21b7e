import type { Changes } from '../db/changes';
import type { JobRow, JobStore } from '../db/jobs';
import type { BalanceCache } from './account/balance';
import type { EventHub } from './event-hub';
import { BULK } from './options';
import type { JobViews } from './queue/job-views';
import type { TransferMeters } from './queue/meters';
import type { WorkerRates } from './queue/rates-in';
import type { RatesPublisher } from './queue/rates-out';

/** The faces are told to list again at most this often (a big add commits a slice at a time). */
const LIST_EVERY_MS = 400;

export interface JobEventsDeps {
  store: JobStore;
  hub: EventHub;
  meters: TransferMeters;
  views: JobViews;
  balance: Pick<BalanceCache, 'charged'>;
  /** This process's transfers, told to the other processes. */
  publisher: Pick<RatesPublisher, 'moved'>;
  /** The transfers of the process that works the queue, when it is another one. */
  workerRates: Pick<WorkerRates, 'onChange'>;
}

/**
 * What the faces hear of jobs, from the change feed: each changed job's view (`job`), as it commits; once
 * more than BULK changed in one turn of the event loop (a bulk cancel is a commit per job, a big add one per
 * slice), some left the list, or another process changed them: `jobs-changed` (list again) instead. A job
 * that stops transferring drops its meter, and one the service charged has the balance read again. A
 * transfer another process works is shown as that process publishes it.
 */
export class JobEvents {
  private listTimer: NodeJS.Timeout | null = null;
  private listedAt = Number.NEGATIVE_INFINITY;
  private removed: number[] = [];
  /** Job events sent in this turn; past BULK, the turn ends with a list instead. */
  private sentThisTurn = 0;
  private overflow = false;
  private turnWatched = false;
  private closed = false;

  constructor(private readonly deps: JobEventsDeps) {
    deps.workerRates.onChange((ids) => this.transfersElsewhere(ids));
  }

  /** One commit's changes (the feed's subscriber). */
  heard(changes: Changes): void {
    for (const row of changes.jobs.values()) if (row) this.rowChanged(row);
    // A source's package is on its row, which no job's event carries.
    if (changes.allJobs || changes.removed.length || changes.packages) this.listChanged(changes.removed);
    if (this.deps.hub.size === 0 || this.closed || changes.jobs.size === 0) return;
    if (!this.turnWatched) {
      this.turnWatched = true;
      setImmediate(() => this.turnEnded());
    }
    if (this.overflow || this.sentThisTurn + changes.jobs.size > BULK) {
      this.overflow = true;
      return;
    }
    this.sentThisTurn += changes.jobs.size;
    for (const [id, row] of changes.jobs) {
      const now = row ?? this.deps.store.reads.get(id);
      if (now) this.deps.hub.emit({ type: 'job', job: this.deps.views.view(now) });
    }
  }

  private turnEnded(): void {
    this.turnWatched = false;
    this.sentThisTurn = 0;
    if (!this.overflow) return;
    this.overflow = false;
    this.listChanged();
  }

  /** A transfer moved: its job's view is sent when its meter says an event is due (four a second at most). */
  progress(id: number, transferred: number, total: number | null): void {
    if (!this.deps.meters.update(id, transferred, total)) return;
    this.deps.publisher.moved();
    if (this.deps.hub.size === 0) return;
    const row = this.deps.store.reads.get(id);
    if (row) this.deps.hub.emit({ type: 'job', job: this.deps.views.view(row) });
  }

  /** The worker in another process published its transfers: their jobs' views, with its speed. */
  private transfersElsewhere(ids: readonly number[]): void {
    if (this.deps.hub.size === 0 || this.closed) return;
    for (const id of ids) {
      const row = this.deps.store.reads.get(id);
      if (row) this.deps.hub.emit({ type: 'job', job: this.deps.views.view(row) });
    }
  }

  /**
   * The faces list again (the list or its order changed in ways no single job says): at once, then at most
   * every LIST_EVERY_MS while changes keep coming (the slices of a big add, another process at work).
   */
  listChanged(removed: readonly number[] = []): void {
    this.removed.push(...removed);
    if (this.listTimer || this.closed) return;
    const wait = Math.max(0, this.listedAt + LIST_EVERY_MS - Date.now());
    if (wait === 0) return this.sendList();
    this.listTimer = setTimeout(() => this.sendList(), wait);
    this.listTimer.unref?.();
  }

  close(): void {
    this.closed = true;
    if (this.listTimer) clearTimeout(this.listTimer);
    this.listTimer = null;
  }

  private sendList(): void {
    this.listTimer = null;
    this.listedAt = Date.now();
    const removed = this.removed;
    this.removed = [];
    this.deps.hub.emit({ type: 'jobs-changed', removed });
  }

  private rowChanged(row: JobRow): void {
    if (row.state !== 'uploading' && row.state !== 'downloading' && this.deps.meters.forget(row.id))
      this.deps.publisher.moved();
    // The service charges when a dub completes (and may for a failure): its balance is read again.
    if (row.credits_charged !== null || row.state === 'failed' || row.state === 'canceled')
      this.deps.balance.charged();
  }
}
