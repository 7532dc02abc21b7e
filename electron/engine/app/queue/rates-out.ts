import type { Changes } from '../../db/changes';
import type { RatesStore } from '../../db/published-rates';
import type { JobPace } from '../totals/pace';
import type { TransferMeters } from './meters';

/** The rates are written at most this often: a commit a second while bytes move, none while idle. */
const EVERY_MS = 1000;

const NOTHING = JSON.stringify({ transfers: [], jobSeconds: null });

export interface RatesPublisherDeps {
  store: RatesStore;
  meters: TransferMeters;
  pace: JobPace;
  warn: (fields: Record<string, unknown>, message: string) => void;
}

/**
 * Tells the other processes on the data folder (a `serve` tab, the desktop window, `status --watch`) the
 * speed, time left and pace that live in this process's memory while it works the queue: its transfers'
 * meters and its pace go into the shared database (`db/published-rates.ts`), at most once a second and
 * only when they changed, so the change feed carries them. Only the holder of the queue lock writes, and
 * what it wrote goes with its lock (released, or taken over from it once it died).
 */
export class RatesPublisher {
  private timer: NodeJS.Timeout | null = null;
  private writtenAt = Number.NEGATIVE_INFINITY;
  /** What the database holds of this process's rates (as JSON); NOTHING when none. */
  private written = NOTHING;
  private closed = false;

  constructor(private readonly deps: RatesPublisherDeps) {}

  /** A transfer moved or ended, or the pace changed: written within EVERY_MS. */
  moved(): void {
    if (this.timer || this.closed) return;
    const wait = Math.max(0, this.writtenAt + EVERY_MS - Date.now());
    this.timer = setTimeout(() => this.publish(), wait);
    this.timer.unref?.();
  }

  /** The queue lock was taken or given back: whatever was published went with it. */
  heard(changes: Changes): void {
    if (!changes.lock) return;
    this.written = NOTHING;
    this.moved();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private publish(): void {
    this.timer = null;
    if (this.closed) return;
    const rates = { transfers: this.deps.meters.snapshot(), jobSeconds: this.deps.pace.averageSeconds };
    const text = JSON.stringify(rates);
    if (text === this.written) return;
    this.writtenAt = Date.now();
    try {
      if (this.deps.store.publish(rates)) this.written = text;
    } catch (err) {
      // A full disk or a busy database costs the other windows their speed figure, never the transfer.
      this.deps.warn({ err }, 'the transfer rates could not be written for the other windows');
    }
  }
}
