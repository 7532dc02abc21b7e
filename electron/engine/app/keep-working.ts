import { toContractError, type ContractError } from '../../../shared/contract/errors';
import type { DubdeskApi } from '../../../shared/contract/methods';
import type { RunOptions, RunOutcome } from '../runner/runner';

/** What a long-lived face (the desktop app, `serve`) needs of the engine to keep its queue worked. */
export interface WorkableHost {
  readonly api: DubdeskApi;
  run(opts: RunOptions): Promise<RunOutcome>;
  wake(): void;
}

/**
 * A run started (`running`; `holdsQueue` once it has the queue's lock), or ended: how, or the error that
 * stopped it from working the queue, and whether it ended because the worker is stopping.
 */
export type WorkerReport =
  | { running: true; holdsQueue: boolean }
  | { running: false; outcome: RunOutcome | null; error: ContractError | null; stopping: boolean };

export interface QueueWorker {
  /** Resolves once the worker stopped (after `stop`): the steps in progress have ended. */
  readonly stopped: Promise<void>;
  /**
   * `drain` (the default): nothing new starts and each running step ends after its HTTP call; `cut`:
   * transfers in flight stop at once (every job resumes from what it recorded). A drain can still be cut.
   */
  stop(how?: 'drain' | 'cut'): void;
  /** Held: the running steps finish and no run starts until let go ("quit after the current uploads"). */
  hold(on: boolean): void;
  /** Tries again now rather than after the retry delay (the machine woke up, something changed). */
  nudge(): void;
}

const DEFAULTS = { concurrency: 2, pollMs: 3000 };

/**
 * Works the queue for as long as a face runs (`untilDone: false`), with the concurrency and poll interval
 * the settings hold at each moment: a change applies to the next claim and poll, not the next start. When
 * the queue cannot be worked (another process holds it, no key yet), it reports why and tries again after
 * `retryMs`, or at once when the settings change or `nudge` is called.
 */
export function keepWorking(
  host: WorkableHost,
  opts: { onReport?: (report: WorkerReport) => void; retryMs: number },
): QueueWorker {
  let concurrency = DEFAULTS.concurrency;
  let pollMs = DEFAULTS.pollMs;
  let held = false;
  let stopping = false;
  let drain = new AbortController();
  let cut = new AbortController();
  let nudge = () => {};

  const unsubscribe = host.api.subscribe((e) => {
    if (e.type !== 'settings') return;
    const changed =
      e.settings.concurrency !== concurrency || e.settings.pollIntervalSeconds * 1000 !== pollMs;
    concurrency = e.settings.concurrency;
    pollMs = e.settings.pollIntervalSeconds * 1000;
    // The runner reads both again at once, and a worker that could not start tries again now.
    if (changed) host.wake();
    nudge();
  });
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      nudge = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    const settings = await host.api.getSettings().catch(() => null);
    if (settings) {
      concurrency = settings.concurrency;
      pollMs = settings.pollIntervalSeconds * 1000;
    }
    while (!stopping) {
      drain = new AbortController();
      cut = new AbortController();
      if (held) drain.abort();
      let outcome: RunOutcome | null = null;
      let error: ContractError | null = null;
      opts.onReport?.({ running: true, holdsQueue: false });
      try {
        outcome = await host.run({
          untilDone: false,
          onQueueHeld: () => opts.onReport?.({ running: true, holdsQueue: true }),
          concurrency: () => concurrency,
          pollIntervalMs: () => pollMs,
          signal: cut.signal,
          drain: drain.signal,
        });
      } catch (e) {
        error = toContractError(e);
      }
      opts.onReport?.({ running: false, outcome, error, stopping });
      if (stopping) break;
      // Held: wait to be let go. Otherwise (failed, or the queue taken over): again later, or when nudged.
      await pause(held ? 2 ** 31 - 1 : opts.retryMs);
    }
    unsubscribe();
  };
  const stopped = loop();

  return {
    stopped,
    stop: (how = 'drain') => {
      stopping = true;
      drain.abort();
      if (how === 'cut') cut.abort();
      nudge();
    },
    hold: (on) => {
      held = on;
      if (on) drain.abort();
      nudge();
    },
    nudge: () => nudge(),
  };
}
