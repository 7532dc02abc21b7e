/**
 * Whether the service could be reached, as the worker and the faces' calls last found it, whether the disk
 * under the data folder has room, and the jobs the last run left mid-step: what the totals show beside the
 * queue's counts. Made before the worker and the
 * totals, which both hold it (the worker writes, the totals read and listen).
 */
export class ServiceReach {
  private offlineWhy: string | null = null;
  private resumed = 0;
  private storage: string | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly warn: (fields: Record<string, unknown>, message: string) => void) {}

  get offline(): string | null {
    return this.offlineWhy;
  }

  /** What to free, where, while the disk under the data folder is full; null while it has room. */
  get storageFull(): string | null {
    return this.storage;
  }

  get resumedAfterCrash(): number {
    return this.resumed;
  }

  /** The worker could not reach the service (why), or could again (null). */
  connectivity(offline: string | null): void {
    if (offline === this.offlineWhy) return;
    this.offlineWhy = offline;
    this.warn({ offline }, offline ? 'service unreachable' : 'service reachable again');
    this.changed();
  }

  /** The disk under the data folder is full (what to free, where), or has room again (null). */
  storageIsFull(full: string | null): void {
    if (full === this.storage) return;
    this.storage = full;
    this.warn({ full }, full ?? 'the data folder has room again');
    this.changed();
  }

  /** The service answered a call of the faces: it is reachable. */
  answered(): void {
    if (!this.offlineWhy) return;
    this.offlineWhy = null;
    this.changed();
  }

  /** The worker found `n` jobs the last run left mid-step. */
  resumedJobs(n: number): void {
    this.resumed = n;
    this.warn({ jobs: n }, 'resumed jobs the last run left mid-step');
    this.changed();
  }

  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
