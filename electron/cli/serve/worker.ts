import { DubdeskError, toContractError } from '../../../shared/contract/errors';
import type { DubdeskApi } from '../../../shared/contract/methods';
import type { Settings } from '../../../shared/contract/settings';
import type { DubdeskHost, RunOutcome } from '../../engine/index';

/** How long to wait before asking again for a queue another process works, or a service that failed. */
const RETRY_MS = 30_000;

export interface QueueWorker {
  /** Resolves once the worker stopped (after `stop`): the steps in progress have ended. */
  readonly stopped: Promise<void>;
  /**
   * `drain` (the default): nothing new starts and each running step ends after its HTTP call; `cut`:
   * transfers in flight stop at once (every job resumes from what it recorded). A drain can still be cut.
   */
  stop(how?: 'drain' | 'cut'): void;
}

function sleep(ms: number, signal: AbortSignal, wake: (w: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    wake(done);
  });
}

/**
 * Works the queue for as long as `serve` runs (`untilDone: false`), with the concurrency and poll interval
 * the settings hold at each moment (a change in the app applies to the next claim and poll, not the next
 * start). When another process holds the queue (the desktop app, a `dubdesk run`) or the service cannot be
 * used yet (no key, a rejected key), it says so once, keeps the contract served, and tries again later, or
 * at once when the settings change.
 */
export function workQueue(
  host: Pick<DubdeskHost, 'run'>,
  api: DubdeskApi,
  say: (line: string) => void,
): QueueWorker {
  const drain = new AbortController();
  const cut = new AbortController();
  let wakeUp = () => {};
  let settings: Settings | null = null;
  const unsubscribe = api.subscribe((e) => {
    if (e.type !== 'settings') return;
    settings = e.settings;
    wakeUp();
  });
  let lastSaid = '';
  const sayOnce = (line: string) => {
    if (line !== lastSaid) say(line);
    lastSaid = line;
  };
  // A cut always drains too (see `stop`).
  const stopping = () => drain.signal.aborted;

  const loop = async () => {
    while (!stopping()) {
      let outcome: RunOutcome | null = null;
      try {
        const first = settings ?? (settings = await api.getSettings());
        sayOnce('Working the queue.');
        outcome = await host.run({
          untilDone: false,
          concurrency: () => (settings ?? first).concurrency,
          pollIntervalMs: () => (settings ?? first).pollIntervalSeconds * 1000,
          signal: cut.signal,
          drain: drain.signal,
        });
      } catch (e) {
        const err = e instanceof DubdeskError ? e.toJSON() : toContractError(e);
        sayOnce(
          err.code === 'busy'
            ? `Not working the queue: ${err.message}. The app is served all the same (that process moves the jobs). Trying again every ${RETRY_MS / 1000} s.`
            : `Not working the queue: ${err.message}.${err.remedy ? ` ${err.remedy}` : ''} Trying again when the settings change.`,
        );
      }
      if (stopping()) break;
      if (outcome === 'aborted') sayOnce('Another process took the queue over; trying again later.');
      await sleep(RETRY_MS, drain.signal, (w) => (wakeUp = w));
    }
    unsubscribe();
  };

  return {
    stopped: loop(),
    stop: (how = 'drain') => {
      drain.abort();
      if (how === 'cut') cut.abort();
    },
  };
}
