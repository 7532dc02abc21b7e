import type { DubdeskApi } from '../../../shared/contract/methods';
import type { StartupBackup } from '../db/backup';
import type { QueueDatabase } from '../db/queue-database';
import type { EngineLog } from '../log/log';
import type { Runner, RunOptions, RunOutcome } from '../runner/runner';
import { askAfterRestore, type AfterRestore } from '../flows/restored-dubs';
import { announce } from '../home/presence';
import { holdToolHost } from '../../media-tools/tool-host';
import { ensureService } from './contract-error';
import type { EventHub } from './event-hub';
import type { HistoryAging } from './history/history-aging';
import type { JobEvents } from './job-events';
import type { EngineOptions } from './options';
import type { ServiceConnection } from './dubbing-service';
import type { RunSettings } from './steering/run-settings';
import { capabilities, listenAndOpen, openGround, queueState, work } from './stages';
import type { TotalsService } from './totals/totals-service';
import type { WhenDoneService } from './when-done/when-done-service';
import type { WatchFolders } from './watch/watch-folders-service';

/**
 * The engine behind the contract: every face (CLI, desktop, web) gets `api` and nothing else, plus `run`
 * for whoever works the queue in this process. It is built in the stages of `stages.ts`, each a function
 * of the ones before it, so no part is handed a part that does not exist yet.
 */
export class DubdeskEngine {
  readonly api: DubdeskApi;
  private readonly db: QueueDatabase;
  /** The start-up backup of the queue database, taken (or finished) before the database closes. */
  private readonly backup: StartupBackup;
  private readonly services: ServiceConnection;
  private readonly log: EngineLog;
  private readonly hub: EventHub;
  private readonly runner: Runner;
  private readonly totals: TotalsService;
  private readonly events: JobEvents;
  private readonly rates: { close(): void }[];
  private readonly watch: WatchFolders;
  private readonly aging: HistoryAging;
  /** The caps and the sending window: the settings', or a run's own flags while it runs. */
  private readonly steering: RunSettings;
  private readonly whenDone: WhenDoneService;
  private readonly unsubscribe: () => void;
  private closed = false;
  /** Tells another Dubdesk (`restore-db`) that this one has the data folder open, until it closes. */
  private readonly presence: () => void;
  /** The media tools run in a helper process while this engine is open (tool-host.ts). */
  private readonly toolHost: () => Promise<void>;

  constructor(options: EngineOptions) {
    const ground = openGround(options);
    const state = queueState(ground);
    const worker = work(ground, state, options);
    const caps = capabilities(ground, state, worker, options);
    const { api, unsubscribe } = listenAndOpen(ground, state, worker, caps, options);
    this.db = ground.db;
    this.backup = ground.backup;
    this.services = ground.services;
    this.log = ground.log;
    this.hub = ground.hub;
    this.runner = worker.runner;
    this.totals = worker.totals;
    this.events = state.events;
    this.rates = [state.publisher, state.workerRates];
    this.watch = caps.watch;
    this.aging = caps.aging;
    this.steering = state.steering;
    this.whenDone = caps.steer.whenDone;
    this.api = api;
    this.unsubscribe = unsubscribe;
    this.aging.start();
    this.presence = announce(options.home, options.face);
    // Held once the engine is open (an engine that failed to open holds nothing).
    this.toolHost = holdToolHost();
    this.log.logger.info({ face: options.face, home: options.home }, 'engine opened');
    // The faces say why in one plain sentence; the system's own words are kept here for whoever digs.
    const { keyStore } = ground;
    if (keyStore.osDetail)
      this.log.logger.warn(
        { detail: keyStore.osDetail },
        `no system credential store: ${keyStore.storage?.().osUnavailable ?? 'it did not answer'}`,
      );
  }

  /**
   * Works the queue in this process (one worker per queue: a second one gets a `busy` error), and watches
   * the folders while it does (unless it is to return once the queue is done).
   */
  async run(opts: RunOptions): Promise<RunOutcome> {
    await ensureService(this.services);
    const watching = opts.watch ?? !opts.untilDone;
    this.log.logger.info(
      { untilDone: opts.untilDone, concurrency: opts.concurrency, watching },
      'run started',
    );
    this.totals.schedule();
    this.steering.forRun(opts);
    // The runner takes the queue lock before its first await: only the process that holds it watches.
    const running = this.runner.run(opts);
    if (watching && this.runner.isRunning) this.watch.startWatching();
    try {
      const outcome = await running;
      this.log.logger.info({ outcome }, 'run ended');
      return outcome;
    } finally {
      this.steering.forRun(null);
      await this.watch.stopWatching();
      this.totals.schedule();
    }
  }

  /**
   * After `restore-db`: asks the service for the dubs the restored queue does not know (nothing is sent
   * before); null when no restore waits for it. A run does the same by itself before its first create.
   */
  async recover(): Promise<AfterRestore | null> {
    const { clients } = await ensureService(this.services);
    const found = await askAfterRestore(this.db.jobs, clients, new AbortController().signal);
    if (found)
      this.log.logger.info(
        { listed: found.listed, unclaimed: found.unclaimed.length },
        'asked the service for the dubs made before the restore',
      );
    return found;
  }

  /** The machine woke up or the network came back: poll and retry network waits now. */
  wake(): void {
    this.runner.pollNow();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watch.close();
    await this.aging.close();
    this.totals.close();
    this.whenDone.dispose();
    this.events.close();
    for (const r of this.rates) r.close();
    this.unsubscribe();
    this.hub.clear();
    await this.services.close();
    await this.backup.now();
    await this.toolHost();
    this.presence();
    this.log.logger.info('engine closed');
    this.log.close();
    this.db.close();
  }
}
