import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import { emptyCounts, type QueueTotals } from '../../../../shared/contract/queue';
import type { JobRow, JobStore } from '../../db/jobs';
import type { Db } from '../../db/open';
import { QueueLock } from '../../queue/lock';
import type { AccountService } from '../account/account-service';
import type { EventHub } from '../event-hub';
import type { TransferMeters } from '../queue/meters';
import type { QueuePauseSetting } from '../queue/pause';
import { readAppSettings } from '../settings/app-settings';
import { JobPace } from './pace';

/** Totals are sent at most this often, after the change that asked for them. */
const TOTALS_EVERY_MS = 250;

export interface TotalsDeps {
  db: Db;
  store: JobStore;
  hub: EventHub;
  meters: TransferMeters;
  account: AccountService;
  pause: QueuePauseSetting;
  /** Whether this process works the queue now. */
  isRunning(): boolean;
  warn(fields: Record<string, unknown>, message: string): void;
}

type TotalsHandlers = Pick<DubdeskHandlers, 'totals' | 'pauseQueue' | 'resumeQueue'>;

/**
 * The queue as a whole: counts, credits, the balance left, the time left, and whether it is paused,
 * offline or being worked. Sent to the faces as a `totals` event, throttled.
 */
export class TotalsService {
  private readonly pace = new JobPace();
  private offline: string | null = null;
  private storage: string | null = null;
  private resumedAfterCrash = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: TotalsDeps) {
    // A new balance from the service reaches the header without waiting for the next job change.
    deps.account.balance.onChange(() => this.schedule());
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

  jobChanged(row: JobRow): void {
    this.pace.seen(row);
  }

  /** The worker could not reach the service (why), or could again (null). */
  connectivity(offline: string | null): void {
    if (offline === this.offline) return;
    this.offline = offline;
    this.deps.warn({ offline }, offline ? 'service unreachable' : 'service reachable again');
    this.schedule();
  }

  /** The disk under the data folder is full (what to free, where), or has room again (null). */
  storageFull(full: string | null): void {
    if (full === this.storage) return;
    this.storage = full;
    this.deps.warn({ full }, full ?? 'the data folder has room again');
    this.schedule();
  }

  /** The service answered a call of the faces: it is reachable. */
  reachable(): void {
    if (!this.offline) return;
    this.offline = null;
    this.schedule();
  }

  /** The worker found `n` jobs the last run left mid-step. */
  resumed(n: number): void {
    this.resumedAfterCrash = n;
    this.deps.warn({ jobs: n }, 'resumed jobs the last run left mid-step');
    this.schedule();
  }

  totals(): QueueTotals {
    const { store, account, meters } = this.deps;
    // The balance is the service's own figure; what the queue will still spend is shown beside it.
    account.balance.refreshIfDue();
    const counts = { ...emptyCounts(), ...store.countsByState() };
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const left = total - counts.completed - counts.failed - counts.canceled;
    const transfers = meters.overall();
    const sums = store.creditSums();
    const committed = account.committedNow();
    const concurrency = readAppSettings(store).concurrency;
    const balance = account.balance.value;
    return {
      counts,
      total,
      history: store.historyCount(),
      left,
      bytesPerSecond: transfers.bytesPerSecond,
      etaSeconds: this.pace.etaSeconds(left, concurrency, transfers.etaSeconds),
      creditsCommitted: committed,
      creditsCharged: sums.charged,
      balance,
      creditsShort: balance === null ? null : Math.max(0, committed - balance),
      offline: this.offline,
      storageFull: this.storage,
      paused: this.deps.pause.get(),
      running: this.deps.isRunning() || QueueLock.held(this.deps.db),
      resumedAfterCrash: this.resumedAfterCrash,
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
