import { DeliverStore } from '../db/deliver-store';
import { mediaTools } from '../media/ffmpeg/locate';
import { join } from 'node:path';
import { DubdeskError } from '../../../shared/contract/errors';
import { implementApi, type ImplementOptions } from '../../../shared/contract/implement';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { JobStore } from '../db/jobs';
import { backUp, StartupBackup } from '../db/backup';
import { assertNotLost, openDatabase, type Db } from '../db/open';
import { WatchStore } from '../db/watch';
import { prepareHome, privateFile } from '../home/home';
import { FileKeyStore, type KeyStore } from '../keys/key-store';
import { EngineLog } from '../log/log';
import { DEFAULT_BACKOFF } from '../queue/backoff';
import { Runner, type RunOptions, type RunOutcome } from '../queue/runner';
import { AccountService } from './account/account-service';
import { BatchService } from './batches/batch-service';
import { ensureService } from './contract-error';
import { askAfterRestore, type AfterRestore } from '../flows/restored-dubs';
import { announce } from '../home/presence';
import { EventHub } from './event-hub';
import { HistoryAging } from './history/history-aging';
import { JobEvents } from './job-events';
import { LogSecrets } from './log-secrets';
import { BULK, type EngineOptions } from './options';
import { JobViews } from './queue/job-views';
import { TransferMeters } from './queue/meters';
import { QueuePauseSetting } from './queue/pause';
import { QueueService } from './queue/queue-service';
import { ServiceManager } from './service';
import { SettingsService } from './settings/settings-service';
import { TotalsService } from './totals/totals-service';
import { WatchFolders } from './watch/watch-folders-service';

/** The start-up backup waits this long for the start's own work (opening, watched folders' catch-up). */
const BACKUP_AFTER_MS = 5000;

/**
 * The engine behind the contract: every face (CLI, desktop, web) gets `api` and nothing else, plus `run`
 * for whoever works the queue in this process. This root opens what the capabilities share (the data
 * folder, the database, the service, the log, the event hub, the worker) and composes one service per
 * capability: account and balance, batches, the queue, totals and ETA, settings, watched folders.
 */
export class DubdeskEngine {
  readonly api: DubdeskApi;
  private readonly db: Db;
  /** The start-up backup of the queue database, taken (or finished) before the database closes. */
  private readonly backup: StartupBackup;
  private readonly store: JobStore;
  private readonly deliver: DeliverStore;
  private readonly services: ServiceManager;
  private readonly log: EngineLog;
  private readonly hub = new EventHub();
  private readonly meters = new TransferMeters();
  private readonly runner: Runner;
  private readonly account: AccountService;
  private readonly pause: QueuePauseSetting;
  private readonly totals: TotalsService;
  private readonly events: JobEvents;
  private readonly watch: WatchFolders;
  private readonly aging: HistoryAging;
  private closed = false;
  /** Tells another Dubdesk (`restore-db`) that this one has the data folder open, until it closes. */
  private readonly presence: () => void;

  constructor(options: EngineOptions) {
    prepareHome(options.home, 'logs');
    const keyStore: KeyStore = options.keyStore ?? new FileKeyStore(options.home);
    // Every key Dubdesk knows is scrubbed from the log, and from what the service says as it arrives.
    const secrets = new LogSecrets(keyStore, options.service?.apiKey);
    this.services = new ServiceManager(
      options.home,
      keyStore,
      options.service ?? {},
      options.startSandbox ?? null,
      {
        ...(options.limits ? { limits: options.limits } : {}),
        ...(options.partFiles ? { partFiles: options.partFiles } : {}),
        ...(options.sourceReads ? { sourceReads: options.sourceReads } : {}),
        secrets: () => secrets.values(),
      },
    );
    this.log = new EngineLog(options.home, () => secrets.values());
    const logger = this.log.logger;
    const info = (fields: Record<string, unknown>, message: string) => logger.info(fields, message);
    const warn = (fields: Record<string, unknown>, message: string) => logger.warn(fields, message);
    // Before the file is made: a missing one beside backups is damage, not a new queue.
    assertNotLost(join(options.home, 'dubdesk.db'));
    this.db = openDatabase(privateFile(join(options.home, 'dubdesk.db')));
    this.backup = new StartupBackup(
      () =>
        backUp(this.db, join(options.home, 'dubdesk.db')).catch((e: unknown) => {
          logger.warn({ err: e }, 'the queue database could not be backed up');
        }),
      BACKUP_AFTER_MS,
    );
    this.store = new JobStore(this.db);
    this.deliver = new DeliverStore(this.db);
    // A job that failed needs the user: it stands out from the steps of a job's life.
    this.store.onHistory = (jobId, from, to, event, reason) =>
      (to === 'failed' ? warn : info)({ jobId, from, to, event }, reason ? `${event}: ${reason}` : event);

    const wake = () => this.runner.wake();
    const scheduleTotals = () => this.totals.schedule();
    const { db, store, hub, meters, services } = this;
    const serviceId = () => services.current()?.id ?? services.serviceId();
    this.account = new AccountService({ services, store, reachable: () => this.totals.reachable() });
    this.pause = new QueuePauseSetting(store, (p) => {
      logger.info({ pause: p }, p ? `queue paused: ${p.message}` : 'queue resumed');
      wake();
      scheduleTotals();
    });
    this.runner = this.newRunner(options);
    this.totals = new TotalsService({
      db,
      store,
      hub,
      meters,
      account: this.account,
      pause: this.pause,
      isRunning: () => this.runner.isRunning,
      warn,
    });
    const views = new JobViews(store, meters, serviceId, () => this.pause.get()?.reason === 'user');
    this.events = new JobEvents({
      store,
      hub,
      meters,
      views,
      balance: this.account.balance,
      totals: this.totals,
      watch: { jobChanged: (row) => this.watch.jobChanged(row), jobsChanged: () => this.watch.jobsChanged() },
    });
    const batches = new BatchService({
      db,
      store,
      services,
      account: this.account,
      events: this.events,
      cwd: options.cwd ?? null,
      info,
      wake,
      scheduleTotals,
    });
    this.watch = new WatchFolders({
      store,
      watch: new WatchStore(db),
      home: options.home,
      ...(options.watch ? { timing: options.watch } : {}),
      cwd: options.cwd ?? null,
      emit: (body) => hub.emit(body),
      hasListeners: () => hub.size > 0,
      plan: (paths, preset, folderId) => batches.planForFolder(paths, preset, folderId),
      balance: () => this.account.balanceOrNull().catch(() => null),
      checkPreset: (preset, folder) => batches.checkPreset(preset, folder),
      jobsChanged: (added, changed) => {
        for (const row of changed) this.events.changed(row);
        if (added.length > BULK) hub.emit({ type: 'jobs-changed', removed: [] });
        else for (const id of added) this.events.emitJob(id);
        if (added.length) wake();
        scheduleTotals();
      },
      info,
      warn,
    });
    const queue = new QueueService({
      store,
      deliver: this.deliver,
      views,
      events: this.events,
      log: this.log,
      abortJob: (id) => this.runner.abortJob(id),
      wake,
      scheduleTotals,
    });
    this.aging = new HistoryAging({
      store,
      moved: (jobs) => {
        info({ jobs }, 'finished jobs moved to the history');
        hub.emit({ type: 'jobs-changed', removed: [] });
        scheduleTotals();
      },
      warn,
    });
    const settings = new SettingsService({
      options,
      store,
      services,
      account: this.account,
      pause: this.pause,
      secrets,
      hub,
      info,
      wake: () => {
        wake();
        this.aging.settingsChanged();
      },
      scheduleTotals,
    });
    const impl: ImplementOptions = options.checkOutputs ? { checkOutputs: true } : {};
    this.api = implementApi(
      {
        ...settings.handlers(),
        ...this.account.handlers(),
        ...batches.handlers(),
        ...queue.handlers(),
        ...this.totals.handlers(),
        ...this.watch.handlers(),
      },
      (listener) => hub.subscribe(listener),
      impl,
    );
    this.aging.start();
    this.presence = announce(options.home, options.face);
    logger.info({ face: options.face, home: options.home }, 'engine opened');
    // The faces say why in one plain sentence; the system's own words are kept here for whoever digs.
    if (keyStore.osDetail)
      logger.warn(
        { detail: keyStore.osDetail },
        `no system credential store: ${keyStore.storage?.().osUnavailable ?? 'it did not answer'}`,
      );
  }

  /** The worker: it tells the job events, the meters and the totals what it does. */
  private newRunner(options: EngineOptions): Runner {
    return new Runner(
      {
        db: this.db,
        store: this.store,
        deliver: this.deliver,
        mediaTools: async () => (await mediaTools()).tools,
        home: options.home,
        clients: () => {
          const active = this.services.current();
          if (!active) throw new DubdeskError('config', 'the service changed; it is being opened again');
          return active.clients;
        },
        service: () => this.services.current()?.id ?? this.services.serviceId(),
        queuePause: () => this.pause.get(),
        setQueuePause: (p) => this.pause.set(p),
        balance: async () => (await this.account.accountNow()).balance,
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        maxServiceAttempts: options.maxServiceAttempts ?? 8,
      },
      {
        changed: (row) => this.events.changed(row),
        progress: (id, t, n) => {
          if (this.meters.update(id, t, n)) this.events.emitJob(id);
        },
        connectivity: (offline) => this.totals.connectivity(offline),
        resumed: (n) => this.totals.resumed(n),
        storage: (full) => this.totals.storageFull(full),
        warn: (message) => this.log.logger.warn(message),
        listChanged: () => this.events.listChanged(),
      },
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

  /**
   * After `restore-db`: asks the service for the dubs the restored queue does not know (nothing is sent
   * before); null when no restore waits for it. A run does the same by itself before its first create.
   */
  async recover(): Promise<AfterRestore | null> {
    const { clients } = await ensureService(this.services);
    const found = await askAfterRestore(this.store, clients, new AbortController().signal);
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
    this.hub.clear();
    await this.services.close();
    await this.backup.now();
    this.presence();
    this.log.logger.info('engine closed');
    this.log.close();
    this.db.close();
  }
}
