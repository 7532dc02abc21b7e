import { QueuePauseSchema } from '../../../../shared/contract/queue';
import type { JobStore } from '../../db/jobs';
import type { QueuePause } from '../../runner/runner';

export const PAUSE_KEY = 'queue.pause';

/**
 * Whether the whole queue is paused, and why (the user, or a key the service refused). Kept in the
 * database, so every process working on the same queue sees it.
 */
export class QueuePauseSetting {
  constructor(
    private readonly store: JobStore,
    private readonly info: (fields: Record<string, unknown>, message: string) => void,
  ) {}

  get(): QueuePause | null {
    const raw = this.store.settings.get(PAUSE_KEY);
    if (!raw) return null;
    // The database is a file on disk: a value this version cannot read counts as no pause.
    try {
      return QueuePauseSchema.safeParse(JSON.parse(raw)).data ?? null;
    } catch {
      return null;
    }
  }

  set(pause: QueuePause | null): void {
    const before = this.store.settings.get(PAUSE_KEY) ?? null;
    const next = pause ? JSON.stringify(pause) : null;
    if (before === next) return;
    this.store.settings.set(PAUSE_KEY, next);
    this.info({ pause }, pause ? `queue paused: ${pause.message}` : 'queue resumed');
  }
}
