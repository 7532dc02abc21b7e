import { join } from 'node:path';
import { implementApi, type ImplementOptions } from '../../../shared/contract/implement';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { uncapped, type TransferCaps } from '../api/rate-cap';
import { StartupBackup } from '../db/backup';
import type { Changes } from '../db/changes';
import type { JobStore } from '../db/jobs';
import { assertNotLost, QueueDatabase } from '../db/queue-database';
import { prepareHome, privateFile } from '../home/home';
import { FileKeyStore, type KeyStore } from '../keys/key-store';
import { EngineLog } from '../log/log';
import type { Runner } from '../runner/runner';
import { AccountService } from './account/account-service';
import { BatchService } from './batches/batch-service';
import { EventHub } from './event-hub';
import { HistoryAging } from './history/history-aging';
import { JobEvents } from './job-events';
import { LogSecrets } from './log-secrets';
import type { EngineOptions } from './options';
import { JobViews } from './queue/job-views';
import { TransferMeters } from './queue/meters';
import { transferReadings, WorkerRates } from './queue/rates-in';
import { RatesPublisher } from './queue/rates-out';
import { QueuePauseSetting } from './queue/pause';
import { QueueService } from './queue/queue-service';
import { ServiceConnection } from './dubbing-service';
import { SettingsService } from './settings/settings-service';
import { JobPace } from './totals/pace';
import { ServiceReach } from './totals/reach';
import { TotalsService } from './totals/totals-service';
import { WatchFolders } from './watch/watch-folders-service';
import { RunSettings } from './steering/run-settings';
import { SpendingService } from './steering/spending-service';
import { steeringServices, type Steering } from './steering/steering';
import { newWorker } from './worker';

/*
 * The engine is built in stages. Each stage is a function of the stages before it and returns what it
 * made, so a part can only be handed parts that already exist: the order is the code's, not a convention.
 * What a part learns later (a job changed, another process wrote) comes from the database's change feed,
 * which the parts that react to changes subscribe to in the last stage.
 */

/** The start-up backup waits this long for the start's own work (opening, watched folders' catch-up). */
const BACKUP_AFTER_MS = 5000;
const BACKUP_FAILED = 'the queue database could not be backed up';

type Say = (fields: Record<string, unknown>, message: string) => void;

/** Stage 1: the data folder, the dubbing service, the log, the database, the faces' event hub. */
export interface Ground {
  keyStore: KeyStore;
  services: ServiceConnection;
  secrets: LogSecrets;
  log: EngineLog;
  info: Say;
  warn: Say;
  db: QueueDatabase;
  store: JobStore;
  backup: StartupBackup;
  hub: EventHub;
  /** The service the queue's jobs belong to now (the open one, or the configured one). */
  serviceId: () => string;
  /** The caps on uploads and downloads, shared by every transfer (set from the settings or a run's flags). */
  caps: TransferCaps;
}

export function openGround(options: EngineOptions): Ground {
  prepareHome(options.home, 'logs');
  const keyStore: KeyStore = options.keyStore ?? new FileKeyStore(options.home);
  // Every key Dubdesk knows is scrubbed from the log, and from what the service says as it arrives.
  const secrets = new LogSecrets(keyStore, options.service?.apiKey);
  const caps = uncapped();
  const services = new ServiceConnection(
    options.home,
    keyStore,
    options.service ?? {},
    options.startSandbox ?? null,
    { ...serviceOptions(options), secrets: () => secrets.values(), caps },
  );
  const log = new EngineLog(options.home, () => secrets.values());
  const info: Say = (fields, message) => log.logger.info(fields, message);
  const warn: Say = (fields, message) => log.logger.warn(fields, message);
  // Before the file is made: a missing one beside backups is damage, not a new queue.
  assertNotLost(join(options.home, 'dubdesk.db'));
  const db = new QueueDatabase(privateFile(join(options.home, 'dubdesk.db')));
  db.changes.failed = (err) => log.logger.error({ err }, 'a change listener failed');
  const backup = new StartupBackup(
    () => db.backUp().catch((err: unknown) => warn({ err }, BACKUP_FAILED)),
    BACKUP_AFTER_MS,
  );
  const serviceId = () => services.current()?.id ?? services.serviceId();
  return {
    keyStore,
    services,
    secrets,
    log,
    info,
    warn,
    db,
    store: db.jobs,
    backup,
    hub: new EventHub(),
    serviceId,
    caps,
  };
}

/**
 * Stage 2: what the queue's state is made of: the service's reach, the account, the pause, the job events,
 * and what steers the work (caps, the sending window, the monthly budget).
 */
export interface QueueState {
  reach: ServiceReach;
  account: AccountService;
  pause: QueuePauseSetting;
  meters: TransferMeters;
  /** How long a job takes here, from its upload to its results. */
  pace: JobPace;
  /** This process's rates, told to the others while it works the queue. */
  publisher: RatesPublisher;
  /** The rates of the process that works the queue, when it is another one. */
  workerRates: WorkerRates;
  views: JobViews;
  events: JobEvents;
  steering: RunSettings;
}

export function queueState(ground: Ground): QueueState {
  const { db, services, store, hub, warn, info, serviceId, caps } = ground;
  const reach = new ServiceReach(warn);
  const account = new AccountService({ services, store, reach });
  const pause = new QueuePauseSetting(store, info);
  const meters = new TransferMeters();
  const pace = new JobPace();
  const publisher = new RatesPublisher({ store: db.rates, meters, pace, warn });
  const workerRates = new WorkerRates(db.rates, db.lock);
  const readings = transferReadings(meters, workerRates);
  const views = new JobViews(store, readings, serviceId, () => pause.get()?.reason === 'user');
  const balance = account.balance;
  const events = new JobEvents({ store, hub, meters, views, balance, publisher, workerRates });
  const steering = new RunSettings(store, caps);
  return { reach, account, pause, meters, pace, publisher, workerRates, views, events, steering };
}

/** Stage 3: the worker, then the totals, which read it. */
export interface Work {
  runner: Runner;
  totals: TotalsService;
}

export function work(ground: Ground, state: QueueState, options: EngineOptions): Work {
  const { db, services, store, hub, warn } = ground;
  const { account, pause, reach, events, meters, steering, workerRates, pace, publisher } = state;
  const runner = newWorker({ db, services, account, pause, reach, events, warn, steering, options });
  const transfers = transferReadings(meters, workerRates);
  const totals = new TotalsService({
    ...{ store, lock: db.lock, hub, account, pause, reach, runner },
    ...{ transfers, workerRates, pace, publisher },
  });
  return { runner, totals };
}

/** Stage 4: one service per capability the contract offers. */
export interface Capabilities {
  batches: BatchService;
  watch: WatchFolders;
  queue: QueueService;
  aging: HistoryAging;
  settings: SettingsService;
  /** The queue's order, presets, spending and the budget, what happens when a batch is done. */
  steer: Steering;
}

export function capabilities(
  ground: Ground,
  state: QueueState,
  { runner, totals }: Work,
  options: EngineOptions,
): Capabilities {
  const { services, store, db, hub, info, warn, log, secrets, serviceId } = ground;
  const { account, pause, views, events, steering } = state;
  const cwd = options.cwd ?? null;
  const monthlyBudget = () => steering.current().monthlyBudget;
  const spending = new SpendingService({ store, monthlyBudget, service: serviceId });
  const budget = () => spending.budget();
  const batches = new BatchService({ store, services, account, cwd, info, budget });
  const watch = new WatchFolders({
    store,
    watch: db.watch,
    home: options.home,
    ...(options.watch ? { timing: options.watch } : {}),
    cwd,
    emit: (body) => hub.emit(body),
    hasListeners: () => hub.size > 0,
    plan: (paths, preset, folderId) => batches.planForFolder(paths, preset, folderId),
    balance: () => account.balanceOrNull().catch(() => null),
    budget,
    checkPreset: (preset, folder) => batches.checkPreset(preset, folder),
    info,
    warn,
  });
  const queue = new QueueService({ store, views, log, abortJob: (id) => runner.abortJob(id) });
  const aging = new HistoryAging({ store, info, warn });
  const listChanged = () => events.listChanged();
  const settings = new SettingsService({
    options,
    store,
    services,
    account,
    pause,
    secrets,
    hub,
    info,
    listChanged,
  });
  const listJobs = queue.handlers().listJobs;
  const steer = steeringServices({
    store,
    hub,
    log,
    info,
    warn,
    totals,
    spending,
    account,
    listJobs,
    options,
  });
  return { batches, watch, queue, aging, settings, steer };
}

/**
 * Stage 5: everything exists. The parts that react to commits listen, in this order (the log first, the
 * faces' events before the totals they lead to); other processes' commits are listened for; the contract
 * opens. Returns the contract and how to stop listening.
 */
export function listenAndOpen(
  ground: Ground,
  state: QueueState,
  { totals }: Work,
  caps: Capabilities,
  options: EngineOptions,
): { api: DubdeskApi; unsubscribe: () => void } {
  const { db, hub, info, warn } = ground;
  const listeners: ((c: Changes) => void)[] = [
    (c) => logHistory(c, info, warn),
    (c) => state.workerRates.heard(c),
    (c) => state.publisher.heard(c),
    (c) => state.events.heard(c),
    (c) => totals.heard(c),
    (c) => caps.watch.heard(c),
    (c) => caps.settings.heard(c),
    (c) => caps.aging.heard(c),
    (c) => state.steering.heard(c),
    (c) => caps.steer.presets.heard(c),
  ];
  const stops = listeners.map((l) => db.changes.subscribe(l));
  db.listenForOthers();
  const handlers = {
    ...caps.settings.handlers(),
    ...state.account.handlers(),
    ...caps.batches.handlers(),
    ...caps.queue.handlers(),
    ...totals.handlers(),
    ...caps.watch.handlers(),
    ...caps.steer.order.handlers(),
    ...caps.steer.presets.handlers(),
    ...caps.steer.spending.handlers(),
    ...caps.steer.whenDone.handlers(),
  };
  const impl: ImplementOptions = options.checkOutputs ? { checkOutputs: true } : {};
  const api = implementApi(handlers, (listener) => hub.subscribe(listener), impl);
  return { api, unsubscribe: () => stops.forEach((stop) => stop()) };
}

/** What the engine's options say of HTTP limits, part files and source reads (tests shorten and fake them). */
function serviceOptions(options: EngineOptions) {
  return {
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.partFiles ? { partFiles: options.partFiles } : {}),
    ...(options.sourceReads ? { sourceReads: options.sourceReads } : {}),
  };
}

/** Each job's history entry, in the log: a job that failed needs the user, so it stands out as a warning. */
function logHistory(changes: Changes, info: Say, warn: Say): void {
  for (const { jobId, from, to, event, reason } of changes.history)
    (to === 'failed' ? warn : info)({ jobId, from, to, event }, reason ? `${event}: ${reason}` : event);
}
