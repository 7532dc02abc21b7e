import { settingChanged, type Changes } from '../../db/changes';
import type { JobStore } from '../../db/jobs';
import { APP_SETTINGS_KEY, readAppSettings } from '../settings/app-settings';

const DAY_MS = 86_400_000;
/** Jobs moved per transaction: a long history ages in short steps, other work runs between them. */
const CHUNK = 2000;
/** Looked at again at the latest after this long (a setting may have changed; timers cap near 24.8 days). */
const RECHECK_MS = DAY_MS;

export interface HistoryAgingDeps {
  store: JobStore;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Finished jobs older than the history setting (`historyAfterDays`) leave the live list for the history.
 * One timer, set for when the oldest finished job comes due (never a poll), and a pass soon after start.
 */
export class HistoryAging {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly deps: HistoryAgingDeps) {}

  start(): void {
    this.arm(0);
  }

  /** A commit (the feed's subscriber): the history setting may have changed, so look again now. */
  heard(changes: Changes): void {
    if (settingChanged(changes, APP_SETTINGS_KEY)) this.arm(0);
  }

  private arm(inMs: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.running ??= this.pass().then(() => {
          this.running = null;
        });
      },
      Math.max(0, Math.min(inMs, RECHECK_MS)),
    );
    this.timer.unref?.();
  }

  /** Moves every due job, a chunk per transaction, then sets the timer for the next one due. */
  async pass(now = () => Date.now()): Promise<number> {
    const { store } = this.deps;
    let moved = 0;
    try {
      const keepMs = readAppSettings(store).historyAfterDays * DAY_MS;
      const due = store.aging.oldestFinishedAt();
      for (;;) {
        if (this.closed || due === null || due >= now() - keepMs) break;
        const n = store.aging.archive(now() - keepMs, now(), CHUNK);
        moved += n;
        if (n < CHUNK) break;
        await new Promise((r) => setImmediate(r));
      }
      if (moved) {
        store.aging.vacuum();
        this.deps.info({ jobs: moved }, 'finished jobs moved to the history');
      }
      const oldest = store.aging.oldestFinishedAt();
      this.arm(oldest === null ? RECHECK_MS : oldest + keepMs - now() + 1000);
    } catch (e) {
      this.deps.warn({ err: e }, 'finished jobs could not be moved to the history');
      this.arm(RECHECK_MS);
    }
    return moved;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
