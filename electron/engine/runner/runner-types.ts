import type { QueueTotals } from '../../../shared/contract/queue';
import type { SendWindow } from '../../../shared/schedule';
import type { JobStore } from '../db/jobs';
import type { LockStore } from '../db/lock-store';
import type { MediaTools } from '../../media-tools/locate';
import type { Clients } from '../flows/context';
import type { BackoffPolicy } from './backoff';

export interface RunOptions {
  /** Return once no job is left unfinished; otherwise run until aborted. */
  untilDone: boolean;
  /** Uploads at once, and downloads at once (separate limits); a function is read again at every claim. */
  concurrency: number | (() => number);
  /** The shortest time between two polls; the interval grows while nothing moves. A function is read each poll. */
  pollIntervalMs: number | (() => number);
  /** Stops at once: transfers in flight are cut (every step resumes from what it recorded). */
  signal?: AbortSignal;
  /**
   * Stops gently: nothing new starts, no poll is sent, each running step ends after the HTTP call it is in,
   * and the run returns once nothing runs (a face quitting; `signal` still cuts it short).
   */
  drain?: AbortSignal;
  /**
   * The longest sleep when no job is running, tracked or due (default `IDLE_LOOK_MS`): an add, a setting
   * or a wake from this process ends it at once; another process's add is seen at the latest then.
   */
  idleLookMs?: number;
  /** Watch the folders meanwhile (the engine does; default: when not `untilDone`). */
  watch?: boolean;
  /** This run's caps in bytes per second (null: none), beating the settings'; absent: the settings'. */
  maxUploadRate?: number | null;
  maxDownloadRate?: number | null;
  /** This run's sending window (null: any time), beating the settings'; absent: the settings'. */
  sendWindow?: SendWindow | null;
  /** Called once the run holds the queue (another process may hold it first: then the run fails busy). */
  onQueueHeld?: () => void;
}

export const valueOf = (v: number | (() => number)): number => (typeof v === 'function' ? v() : v);

/**
 * Why a run returned: all done, stopped by the user, halted by the service (a rejected key, no credits, its
 * lists failing every poll the failure budget allows), or the queue is paused.
 */
export type RunOutcome = 'done' | 'aborted' | 'auth' | 'credits' | 'paused' | 'unreachable';

export type QueuePause = NonNullable<QueueTotals['paused']>;

export interface RunnerHooks {
  progress(jobId: number, transferred: number, total: number | null): void;
  /** The service became unreachable (a reason) or reachable again (null). */
  connectivity(offline: string | null): void;
  /** Jobs the last run left mid-step when it died, found by this one. */
  resumed(count: number): void;
  /** The disk under the data folder is full ("disk full: free N MiB in DIR"), or has room again (null). */
  storage(full: string | null): void;
  /** Something went wrong that no record holds (a QC or a package that could not be recorded): logged. */
  warn?(message: string): void;
}

/** What the runner needs from its engine; the service may change while it runs (new key, sandbox). */
export interface RunnerEnv {
  store: JobStore;
  lock: LockStore;
  /** Looks whether another process committed (where the data folder cannot be watched, the loop's turns do). */
  lookForOthers(): void;
  /** The ffmpeg Dubdesk found, or null (QC, SubRip files and packages: see runner/deliveries.ts). */
  mediaTools(): Promise<MediaTools | null>;
  home: string;
  clients(): Clients;
  /** Jobs belong to the service that made them; only those of the current one are worked. */
  service(): string;
  queuePause(): QueuePause | null;
  setQueuePause(pause: QueuePause | null): void;
  /** The balance now, to notice credits were added while the queue waits for them. */
  balance(): Promise<number>;
  backoff: BackoffPolicy;
  /**
   * Failures of a step the service keeps misbehaving at (5xx, broken answers, bad links) before the job
   * fails. Waits for the network or the disk do not count, and a transfer that got further starts the
   * count again.
   */
  maxServiceAttempts: number;
  /** When new work may be sent (local time), read at every turn; null or absent: any time. */
  sendWindow?: () => SendWindow | null;
}
