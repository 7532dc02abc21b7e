import type { Changes } from '../../db/changes';
import type { LockStore } from '../../db/lock-store';
import type { PublishedRates, RatesStore } from '../../db/published-rates';
import { QueueLock } from '../../runner/lock';
import { overallOf, type Overall, type TransferMeters } from './meters';
import type { Transfer } from './views';

/** While another process's rates are shown, whether it still lives is checked this often. */
const ALIVE_EVERY_MS = 1000;

type Listener = (jobIds: readonly number[]) => void;

/**
 * The rates of the process that works the queue when it is another one (`RatesPublisher` writes them),
 * heard on the change feed. They are believed only while the lock they came with is held by a live process:
 * one killed (`kill -9`, a crash) said nothing, so while rates are shown its life is checked every second
 * (its pid on this machine), and its rates are dropped the moment it is gone.
 */
export class WorkerRates {
  private rates: PublishedRates | null = null;
  private byJob = new Map<number, Transfer>();
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<Listener>();
  private closed = false;

  constructor(
    private readonly store: RatesStore,
    private readonly lock: LockStore,
  ) {
    this.take(store.read());
  }

  /** Told with the jobs whose transfer changed (the totals change too). */
  onChange(listener: Listener): void {
    this.listeners.add(listener);
  }

  /** A commit: another process published its rates, or the queue's lock moved. */
  heard(changes: Changes): void {
    if (changes.foreign && (changes.rates || changes.lock)) this.take(this.store.read());
  }

  get(id: number): Transfer | undefined {
    return this.byJob.get(id);
  }

  overall(): Overall {
    return overallOf(this.byJob.values());
  }

  /** The worker's pace: seconds a job takes from its upload to its results (null: not known). */
  get jobSeconds(): number | null {
    return this.rates?.jobSeconds ?? null;
  }

  close(): void {
    this.closed = true;
    this.stopChecking();
  }

  private take(next: PublishedRates | null): void {
    const believed = next && this.alive(next) ? next : null;
    const byJob = new Map((believed?.transfers ?? []).map(({ id, ...t }) => [id, t] as const));
    const changed = [...new Set([...this.byJob.keys(), ...byJob.keys()])].filter(
      (id) => JSON.stringify(this.byJob.get(id)) !== JSON.stringify(byJob.get(id)),
    );
    const paceMoved = (believed?.jobSeconds ?? null) !== this.jobSeconds;
    this.rates = believed;
    this.byJob = byJob;
    if (believed && !this.closed) this.keepChecking();
    else this.stopChecking();
    if (changed.length || paceMoved) for (const l of this.listeners) l(changed);
  }

  /** Whether the process that published `rates` still holds the queue, alive. */
  private alive(rates: PublishedRates): boolean {
    return this.lock.holder()?.owner === rates.owner && QueueLock.held(this.lock);
  }

  private keepChecking(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.rates && !this.alive(this.rates)) this.take(null);
    }, ALIVE_EVERY_MS);
    this.timer.unref?.();
  }

  private stopChecking(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** What the faces show of transfers: this process's own, or else those of the process that works the queue. */
export interface TransferReadings {
  get(id: number): Transfer | undefined;
  overall(): Overall;
  /** Seconds a job takes, as the worker elsewhere has seen them (null: not known, or the worker is here). */
  readonly otherPace: number | null;
}

export function transferReadings(meters: TransferMeters, worker: WorkerRates): TransferReadings {
  return {
    get: (id) => meters.get(id) ?? worker.get(id),
    overall: () => (meters.size ? meters.overall() : worker.overall()),
    get otherPace() {
      return worker.jobSeconds;
    },
  };
}
