import { join } from 'node:path';
import { DubdeskError } from '../../../shared/contract/errors';
import { implementApi, type ImplementOptions } from '../../../shared/contract/implement';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { StartupBackup } from '../db/backup';
import type { Changes } from '../db/changes';
import { QueueDatabase } from '../db/queue-database';
import { prepareHome, privateFile } from '../home/home';
import { FileKeyStore } from '../keys/key-store';
import { EngineLog } from '../log/log';
import { DEFAULT_BACKOFF } from '../queue/backoff';
import { Runner, type RunOptions, type RunOutcome } from '../queue/runner';
import { AccountService } from './account/account-service';
import { BatchService } from './batches/batch-service';
import { ensureService } from './contract-error';
import { EventHub } from './event-hub';
import { HistoryAging } from './history/history-aging';
import { JobEvents } from './job-events';
import { LogSecrets } from './log-secrets';
import type { EngineOptions } from './options';
import { JobViews } from './queue/job-views';
import { TransferMeters } from './queue/meters';
import { QueuePauseSetting } from './queue/pause';
import { QueueService } from './queue/queue-service';
import { ServiceManager } from './service';
import { SettingsService } from './settings/settings-service';
import { ServiceReach } from './totals/reach';
import { TotalsService } from './totals/totals-service';
import { WatchFolders } from './watch/watch-folders-service';

/** The start-up backup waits this long for the start's own work (opening, watched folders' catch-up). */
const BACKUP_AFTER_MS = 5000;

/**
 * The engine behind the contract: every face (CLI, desktop, web) gets `api` and nothing else, plus `run`
 * for whoever works the queue in this process. The constructor builds each part after the parts it needs,
 * in the order written, and nothing is handed a part that does not exist yet: what a part learns later
 * (a job changed, another process wrote) comes from the database's change feed, which the parts that react
 * to changes subscribe to last, once everything is built.
 */
export class DubdeskEngine {
  readonly api: DubdeskApi;
  private readonly db: QueueDatabase;
  /** The start-up backup of the queue database, taken (or finished) before the database closes. */
  private readonly backup: StartupBackup;
  private readonly services: ServiceManager;
  private readonly log: EngineLog;
  private readonly hub = new EventHub();
  private readonly runner: Runner;
  private readonly totals: TotalsService;
  private readonly events: JobEvents;
  private readonly watch: WatchFolders;
  private readonly aging: HistoryAging;
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(options: EngineOptions) {
    // 1. The data folder, the service, the log, the database.
    prepareHome(options.home, 'logs');
    const keyStore = options.keyStore ?? new FileKeyStore(options.home);
    this.services = new ServiceManager(
      options.home,
      keyStore,
      options.service ?? {},
      options.startSandbox ?? null,
      {
        ...(options.limits ? { limits: options.limits } : {}),
        ...(options.partFiles ? { partFiles: options.partFiles } : {}),
        ...(options.sourceReads ? { sourceReads: options.sourceReads } : {}),
      },
    );
    const services = this.services;
    const secrets = new LogSecrets(keyStore, options.service?.apiKey);
    this.log = new EngineLog(options.home, () => secrets.values());
    const logger = this.log.logger;
    const info = (fields: Record<string, unknown>, message: string) => logger.info(fields, message);
    const warn = (fields: Record<string, unknown>, message: string) => logger.warn(fields, message);
    const db = (this.db = new QueueDatabase(privateFile(join(options.home, 'dubdesk.db'))));
    db.changes.failed = (err) => logger.error({ err }, 'a change listener failed');
    this.backup = new StartupBackup(
      () =>
        db.backUp().catch((e: unknown) => {
          logger.warn({ err: e }, 'the queue database could not be backed up');
        }),
      BACKUP_AFTER_MS,
    );
    const store = db.jobs;
    const serviceId = () => services.current()?.id ?? services.serviceId();

    // 2. What the queue's state is made of: reach of the service, the account, the pause, the meters.
    const reach = new ServiceReach(warn);
    const account = new AccountService({ services, store, reach });
    const pause = new QueuePauseSetting(store, info);
    const meters = new TransferMeters();
    const views = new JobViews(store, meters, serviceId, () => pause.get()?.reason === 'user');
    this.events = new JobEvents({ store, hub: this.hub, meters, views, balance: account.balance });

    // 3. The worker, then what reads it.
    this.runner = new Runner(
      {
        store,
        lock: db.lock,
        lookForOthers: () => db.lookForOthers(),
        home: options.home,
        clients: () => {
          const active = services.current();
          if (!active) throw new DubdeskError('config', 'the service changed; it is being opened again');
          return active.clients;
        },
        service: serviceId,
        queuePause: () => pause.get(),
        setQueuePause: (p) => pause.set(p),
        balance: async () => (await account.accountNow()).balance,
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        maxServiceAttempts: options.maxServiceAttempts ?? 8,
      },
      {
        progress: (id, t, n) => this.events.progress(id, t, n),
        connectivity: (offline) => reach.connectivity(offline),
        resumed: (n) => reach.resumedJobs(n),
      },
    );
    this.totals = new TotalsService({
      store,
      lock: db.lock,
      hub: this.hub,
      meters,
      account,
      pause,
      reach,
      runner: this.runner,
    });

    // 4. One service per capability.
    const batches = new BatchService({ store, services, account, cwd: options.cwd ?? null, info });
    this.watch = new WatchFolders({
      store,
      watch: db.watch,
      home: options.home,
      ...(options.watch ? { timing: options.watch } : {}),
      cwd: options.cwd ?? null,
      emit: (body) => this.hub.emit(body),
      hasListeners: () => this.hub.size > 0,
      plan: (paths, preset, folderId) => batches.planForFolder(paths, preset, folderId),
      balance: () => account.balanceOrNull().catch(() => null),
      checkPreset: (preset, folder) => batches.checkPreset(preset, folder),
      info,
      warn,
    });
    const runner = this.runner;
    const queue = new QueueService({ store, views, log: this.log, abortJob: (id) => runner.abortJob(id) });
    this.aging = new HistoryAging({ store, info, warn });
    const settings = new SettingsService({
      options,
      store,
      services,
      account,
      pause,
      secrets,
      hub: this.hub,
      info,
      listChanged: () => this.events.listChanged(),
    });

    // 5. Everything exists: the parts that react to commits listen, in this order, and the contract opens.
    const listeners: ((c: Changes) => void)[] = [
      (c) => logHistory(c, info, warn),
      (c) => this.events.heard(c),
      (c) => this.totals.heard(c),
      (c) => this.watch.heard(c),
      (c) => settings.heard(c),
      (c) => this.aging.heard(c),
    ];
    const stops = listeners.map((l) => db.changes.subscribe(l));
    this.unsubscribe = () => stops.forEach((stop) => stop());
    db.listenForOthers();
    const impl: ImplementOptions = options.checkOutputs ? { checkOutputs: true } : {};
    this.api = implementApi(
      {
        ...settings.handlers(),
        ...account.handlers(),
        ...batches.handlers(),
        ...queue.handlers(),
        ...this.totals.handlers(),
        ...this.watch.handlers(),
      },
      (listener) => this.hub.subscribe(listener),
      impl,
    );
    this.aging.start();
    logger.info({ face: options.face, home: options.home }, 'engine opened');
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
    // The runner takes the queue lock before its first await: only the process that holds it watches.
    const running = this.runner.run(opts);
    if (watching && this.runner.isRunning) this.watch.startWatching();
    try {
      const outcome = await running;
      this.log.logger.info({ outcome }, 'run ended');
      return outcome;
    } finally {
      await this.watch.stopWatching();
      this.totals.schedule();
    }
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
    this.events.close();
    this.unsubscribe();
    this.hub.clear();
    await this.services.close();
    await this.backup.now();
    this.log.logger.info('engine closed');
    this.log.close();
    this.db.close();
  }
}

/** Each job's history entry, in the log: a job that failed needs the user, so it stands out as a warning. */
function logHistory(
  changes: Changes,
  info: (fields: Record<string, unknown>, message: string) => void,
  warn: (fields: Record<string, unknown>, message: string) => void,
): void {
  for (const { jobId, from, to, event, reason } of changes.history)
    (to === 'failed' ? warn : info)({ jobId, from, to, event }, reason ? `${event}: ${reason}` : event);
}
