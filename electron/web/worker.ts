import type { DubdeskHost, QueueWorker } from '../engine/index';
import { keepWorking } from '../engine/index';

/** How long to wait before asking again for a queue another process works, or a service that failed. */
const RETRY_MS = 30_000;

/**
 * Works the queue for as long as `serve` runs, saying once what it does: working, or why not (another
 * process holds the queue, e.g. the desktop app or a `dubdesk run`; no key yet). The contract stays served
 * either way.
 */
export function workQueue(
  host: Pick<DubdeskHost, 'run' | 'api' | 'wake'>,
  say: (line: string) => void,
): QueueWorker {
  let lastSaid = '';
  const sayOnce = (line: string) => {
    if (line !== lastSaid) say(line);
    lastSaid = line;
  };
  // A run is reported before it has the queue (another process may hold it): saying "starting to work"
  // then "not working" read as a contradiction, so what stops it from working is said, and that it works
  // once it holds the queue after such a line (the last line must not say it is not working any more).
  return keepWorking(host, {
    retryMs: RETRY_MS,
    onReport: (r) => {
      if (r.running) {
        if (r.holdsQueue && lastSaid) sayOnce('Working the queue now.');
        return;
      }
      if (r.stopping) return;
      if (r.outcome === 'aborted') return sayOnce('Another process took the queue over; trying again later.');
      const err = r.error;
      if (!err) return;
      sayOnce(
        err.code === 'busy'
          ? `Not working the queue: ${err.message}. The app is served all the same (that process moves the jobs). Trying again every ${RETRY_MS / 1000} s.`
          : `Not working the queue: ${err.message}.${err.remedy ? ` ${err.remedy}` : ''} Trying again when the settings change.`,
      );
    },
  });
}
