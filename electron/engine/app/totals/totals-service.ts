import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import { emptyCounts, type QueueTotals } from '../../../../shared/contract/queue';
import type { Changes } from '../../db/changes';
import type { JobStore } from '../../db/jobs';
import type { LockStore } from '../../db/lock-store';
import { QueueLock } from '../../runner/lock';
import type { AccountService } from '../account/account-service';
import type { EventHub } from '../event-hub';
import type { TransferReadings, WorkerRates } from '../queue/rates-in';
import type { RatesPublisher } from '../queue/rates-out';
import type { QueuePauseSetting } from '../queue/pause';
import { readAppSettings } from '../settings/app-settings';
import type { JobPace } from './pace';
import type { ServiceReach } from './reach';

/** Totals are sent at most this often, after the change that asked for them. */
const TOTALS_EVERY_MS = 250;

export interface TotalsDeps {
  store: JobStore;
  lock: LockStore;
  hub: EventHub;
  /** The transfers of this process, or of the one that works the queue. */
  transfers: TransferReadings;
  workerRates: Pick<WorkerRates, 'onChange'>;
  pace: JobPace;
  publisher: Pick<RatesPublisher, 'moved'>;
  account: AccountService;
  pause: QueuePauseSetting;
  reach: ServiceReach;
  /** The worker of this process. */
  runner: { readonly isRunning: boolean };
}

type TotalsHandlers = Pick<DubdeskHandlers, 'totals' | 'pauseQueue' | 'resumeQueue'>;

/**
 * The queue as a whole: counts, credits, the balance left, the time left, and whether it is paused,
 * offline or being worked. Sent to the faces as a `totals` event, throttled.
 */
export class TotalsService {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: TotalsDeps) {
    // A new balance from the service reaches the header without waiting for the next job change.
    deps.account.balance.onChange(() => this.schedule());
    deps.reach.onChange(() => this.schedule());
    deps.workerRates.onChange(() => this.schedule());
  }

  /** Totals at most four times a second, after the change that asked for them. */
  schedule(): void {
    if (this.timer || this.closed || this.deps.hub.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.closed) this.deps.hub.emit({ type: 'totals', totals: this.totals() });
    }, TOTALS_EVERY_MS);
    this.timer.unref?.();
  }

  /** A commit (the feed's subscriber): jobs, packages, the pause or the worker's lock moved the totals. */
  heard(changes: Changes): void {
    for (const row of changes.jobs.values()) if (row && this.deps.pace.seen(row)) this.deps.publisher.moved();
    const settings = changes.settings === 'all' || changes.settings.size > 0;
    const moved = changes.jobs.size || changes.removed.length || changes.allJobs || changes.packages;
    if (moved || settings || changes.lock) this.schedule();
  }

  totals(): QueueTotals {
    const { store, account, transfers: readings, pace } = this.deps;
    // The balance is the service's own figure; what the queue will still spend is shown beside it.
    account.balance.refreshIfDue();
    const counts = { ...emptyCounts(), ...store.lists.countsByState() };
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const left = total - counts.completed - counts.failed - counts.canceled;
    const transfers = readings.overall();
    const sums = store.lists.creditSums();
    const committed = account.committedNow();
    const concurrency = readAppSettings(store).concurrency;
    const balance = account.balance.value;
    return {
      counts,
      total,
      history: store.lists.historyCount(),
      left,
      bytesPerSecond: transfers.bytesPerSecond,
      etaSeconds: pace.etaSeconds(left, concurrency, transfers.etaSeconds, readings.otherPace),
      creditsCommitted: committed,
      creditsCharged: sums.charged,
      balance,
      creditsShort: balance === null ? null : Math.max(0, committed - balance),
      offline: this.deps.reach.offline,
      storageFull: this.deps.reach.storageFull,
      packageDiskFull: store.packages.diskFull(),
      paused: this.deps.pause.get(),
      running: this.deps.runner.isRunning || QueueLock.held(this.deps.lock),
      resumedAfterCrash: this.deps.reach.resumedAfterCrash,
    };
  }

  handlers(): TotalsHandlers {
    return {
      totals: () => this.totals(),
      pauseQueue: () => {
        this.deps.pause.set({ reason: 'user', message: 'paused' });
        return this.totals();
      },
      resumeQueue: () => {
        this.deps.pause.set(null);
        return this.totals();
      },
    };
  }

  close(): void {
    this.closed = true;
    this.deps.account.balance.close();
    if (this.timer) clearTimeout(this.timer);
  }
}
