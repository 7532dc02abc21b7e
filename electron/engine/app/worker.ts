import { DubdeskError } from '../../../shared/contract/errors';
import type { QueueDatabase } from '../db/queue-database';
import { mediaTools } from '../../media-tools/locate';
import { DEFAULT_BACKOFF } from '../runner/backoff';
import { Runner } from '../runner/runner';
import type { AccountService } from './account/account-service';
import type { JobEvents } from './job-events';
import type { EngineOptions } from './options';
import type { QueuePauseSetting } from './queue/pause';
import type { ServiceConnection } from './dubbing-service';
import type { RunSettings } from './steering/run-settings';
import type { ServiceReach } from './totals/reach';

/** What the worker is made of: all of it built before it. */
export interface WorkerParts {
  db: QueueDatabase;
  services: ServiceConnection;
  account: AccountService;
  pause: QueuePauseSetting;
  reach: ServiceReach;
  events: JobEvents;
  /** What went wrong that no record holds (a QC or a package that could not be recorded): to the log. */
  warn: (fields: Record<string, unknown>, message: string) => void;
  /** The sending window, from the settings or the run's flags. */
  steering: Pick<RunSettings, 'current'>;
  options: Pick<EngineOptions, 'home' | 'backoff' | 'maxServiceAttempts'>;
}

/**
 * The worker of this process: it works the queue of `db` with the service as it is at each step (a new key
 * or the sandbox may replace it meanwhile), tells the job events of transfers, and the service's reach of
 * what it found; what it commits, everyone hears on the database's change feed.
 */
export function newWorker(parts: WorkerParts): Runner {
  const { db, services, account, pause, reach, events, warn, steering, options } = parts;
  return new Runner(
    {
      store: db.jobs,
      lock: db.lock,
      lookForOthers: () => db.lookForOthers(),
      mediaTools: async () => (await mediaTools()).tools,
      home: options.home,
      clients: () => {
        const active = services.current();
        if (!active) throw new DubdeskError('config', 'the service changed; it is being opened again');
        return active.clients;
      },
      service: () => services.current()?.id ?? services.serviceId(),
      queuePause: () => pause.get(),
      setQueuePause: (p) => pause.set(p),
      balance: async () => (await account.accountNow()).balance,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      maxServiceAttempts: options.maxServiceAttempts ?? 8,
      sendWindow: () => steering.current().sendWindow,
    },
    {
      progress: (id, transferred, total) => events.progress(id, transferred, total),
      connectivity: (offline) => reach.connectivity(offline),
      resumed: (n) => reach.resumedJobs(n),
      storage: (full) => reach.storageIsFull(full),
      warn: (message) => warn({}, message),
    },
  );
}
