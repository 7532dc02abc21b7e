import { join } from 'node:path';
import type { ProfileV2 } from '../../../shared/api/v2';
import type { Account, AppInfo, Languages } from '../../../shared/contract/account';
import type { AddResult, Estimate } from '../../../shared/contract/batches';
import { DubdeskError } from '../../../shared/contract/errors';
import type { EventListener } from '../../../shared/contract/events';
import { implementApi, type ImplementOptions } from '../../../shared/contract/implement';
import { isTerminal, type JobView, type SourceRow } from '../../../shared/contract/jobs';
import type { DubdeskApi, DubdeskHandlers, MethodArgs } from '../../../shared/contract/methods';
import { emptyCounts, QueuePauseSchema, type QueueTotals } from '../../../shared/contract/queue';
import type { Settings } from '../../../shared/contract/settings';
import { LANGUAGES, LEGACY_CODES, flagEmoji, languageName } from '../../../shared/languages';
import { targetLanguages } from '../api/langs';
import type { PartFiles } from '../api/download';
import type { SourceReads } from '../api/body-stream';
import type { HttpLimits } from '../api/limits';
import { JobStore, type JobRow } from '../db/jobs';
import { openDatabase, type Db } from '../db/open';
import { absolutePath } from './paths';
import { WatchStore } from '../db/watch';
import { classify } from '../jobs/errors';
import { enqueueUnlessLive, transition } from '../jobs/life';
import { DEFAULT_BACKOFF, type BackoffPolicy } from '../queue/backoff';
import { QueueLock } from '../queue/lock';
import { Runner, type QueuePause, type RunOptions, type RunOutcome } from '../queue/runner';
import { outRootOf, type WatchTiming } from '../watch/env';
import { applyAction, type Action } from './actions';
import {
  checkLanguages,
  checkOutputFolder,
  checkOutputFolders,
  creditsOf,
  planBatch,
  sortAgainstQueue,
} from './batches';
import { EventHub } from './event-hub';
import { prepareHome, privateFile } from './home';
import { FileKeyStore, type KeyStore } from './key-store';
import { EngineLog } from './log';
import { TransferMeters } from './meters';
import { ServiceManager, type SandboxStarter, type ServiceOverrides } from './service';
import { readAppSettings, rememberBatch, settingsView, writeAppSettings } from './settings';
import { uploadOnceSavings } from './upload-once';
import { toDetail, toView, type ViewContext } from './views';
import { WatchFacade } from './watch';

function accountOf(mode: Account['mode'], baseUrl: string, me: ProfileV2): Account {
  return {
    mode,
    baseUrl,
    id: me.id,
    name: me.name,
    username: me.username,
    firstName: me.first_name,
    lastName: me.last_name,
    email: me.email,
    balance: me.seconds,
    subscriptionStatus: me.subscription_status,
    subscriptionPlan: me.subscription_plan,
    defaultDubLang: me.default_dub_lang,
    createdAt: me.created_at,
  };
}

/** The balance is asked again after a charge at most this often (it also comes with every estimate). */
const BALANCE_REFRESH_MS = 5000;

export interface EngineOptions {
  home: string;
  /** Which face opened the engine (it shows in `appInfo`). */
  face: AppInfo['shell'];
  appVersion?: string;
  /** Session overrides of the stored service settings (CLI flags, DUBDESK_* variables). */
  service?: ServiceOverrides;
  /** Where the API key is kept; the owner-only `service.json` by default. */
  keyStore?: KeyStore;
  /** Starts the built-in sandbox when no service is configured; without it, sandbox mode is unavailable. */
  startSandbox?: SandboxStarter;
  backoff?: BackoffPolicy;
  /** HTTP timeouts and body caps (tests shorten them). */
  limits?: Partial<HttpLimits>;
  /** Where downloads write their part files; the disk by default (tests give one that fills up). */
  partFiles?: PartFiles;
  /** How files going out are read; Node's fs by default (tests give reads that hang, as a share asleep). */
  sourceReads?: SourceReads;
  /** Attempts at a step the service keeps failing before the job fails. */
  maxServiceAttempts?: number;
  /** Parse every result against the contract (tests). */
  checkOutputs?: boolean;
  /**
   * Folder relative paths are resolved against (the CLI's working directory). Absent for a face that has
   * none (the desktop window, the web page): a relative path is refused there, not guessed.
   */
  cwd?: string;
  /** How patient the folder watcher is (tests shorten it). */
  watch?: Partial<WatchTiming>;
}

const PAUSE_KEY = 'queue.pause';
const BULK = 50;
/** Jobs inserted per transaction by `add`. */
const ADD_CHUNK = 250;

/**
 * The engine behind the contract: every face (CLI, desktop, web) gets `api` and nothing else, plus `run`
 * for whoever works the queue in this process.
 */
export class DubdeskEngine {
  readonly api: DubdeskApi;
  private readonly db: Db;
  private readonly store: JobStore;
  private readonly services: ServiceManager;
  private readonly runner: Runner;
  private readonly hub = new EventHub();
  private readonly meters = new TransferMeters();
  private readonly log: EngineLog;
  private readonly watch: WatchFacade;
  private offline: string | null = null;
  private resumedAfterCrash = 0;
  private balance: number | null = null;
  /** A dub was charged since the balance was read: it is asked again. */
  private balanceStale = false;
  private balanceAsking = false;
  private balanceAskedAt = 0;
  private totalsTimer: NodeJS.Timeout | null = null;
  private jobStarts = new Map<number, number>();
  private jobSecondsAvg: number | null = null;
  private closed = false;
  private secretsCache: { at: number; values: readonly string[] } | null = null;
  private readonly keyStore: KeyStore;

  constructor(private readonly options: EngineOptions) {
    prepareHome(options.home, 'logs');
    const keyStore = options.keyStore ?? new FileKeyStore(options.home);
    this.keyStore = keyStore;
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
    this.log = new EngineLog(options.home, () => this.secrets());
    this.db = openDatabase(privateFile(join(options.home, 'dubdesk.db')));
    this.store = new JobStore(this.db);
    this.store.onHistory = (jobId, from, to, event, reason) =>
      this.log.logger.info({ jobId, from, to, event }, reason ? `${event}: ${reason}` : event);
    this.runner = new Runner(
      {
        db: this.db,
        store: this.store,
        home: options.home,
        clients: () => {
          const active = this.services.current();
          if (!active) throw new DubdeskError('config', 'the service changed; it is being opened again');
          return active.clients;
        },
        service: () => this.services.current()?.id ?? this.services.serviceId(),
        queuePause: () => this.queuePause(),
        setQueuePause: (p) => this.setQueuePause(p),
        balance: async () => (await this.accountNow()).balance,
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        maxServiceAttempts: options.maxServiceAttempts ?? 8,
      },
      {
        changed: (row) => this.changed(row),
        progress: (id, t, n) => {
          if (this.meters.update(id, t, n)) this.emitJob(id);
        },
        connectivity: (offline) => {
          if (offline !== this.offline) {
            this.offline = offline;
            this.log.logger.warn({ offline }, offline ? 'service unreachable' : 'service reachable again');
            this.scheduleTotals();
          }
        },
        resumed: (n) => {
          this.resumedAfterCrash = n;
          this.log.logger.warn({ jobs: n }, 'resumed jobs the last run left mid-step');
          this.scheduleTotals();
        },
      },
    );
    this.watch = this.watchFacade(options);
    const impl: ImplementOptions = options.checkOutputs ? { checkOutputs: true } : {};
    this.api = implementApi(this.handlers(), (l) => this.subscribe(l), impl);
    this.log.logger.info({ face: options.face, home: options.home }, 'engine opened');
  }

  /**
   * The keys the log scrubs from every line. Read at most once a second (not once a line: a batch of 10,000
   * jobs must not read the key store 10,000 times), and at once after the service settings change.
   */
  private secrets(): readonly string[] {
    const now = Date.now();
    if (this.secretsCache && now - this.secretsCache.at < 1000) return this.secretsCache.values;
    let stored = '';
    try {
      stored = this.keyStore.get() ?? '';
    } catch {
      /* a damaged store is reported where the key is needed, never from inside a log line */
    }
    const values = [stored, this.options.service?.apiKey ?? ''].filter(Boolean);
    this.secretsCache = { at: now, values };
    return values;
  }

  /**
   * Works the queue in this process (one worker per queue: a second one gets a `busy` error), and watches
   * the folders while it does (unless it is to return once the queue is done).
   */
  async run(opts: RunOptions): Promise<RunOutcome> {
    await this.ensureService();
    const watching = opts.watch ?? !opts.untilDone;
    this.log.logger.info(
      { untilDone: opts.untilDone, concurrency: opts.concurrency, watching },
      'run started',
    );
    this.scheduleTotals();
    // The runner takes the queue lock before its first await: only the process that holds it watches.
    const running = this.runner.run(opts);
    if (watching && this.runner.isRunning) this.watch.startWatching();
    try {
      const outcome = await running;
      this.log.logger.info({ outcome }, 'run ended');
      return outcome;
    } finally {
      await this.watch.stopWatching();
      this.scheduleTotals();
    }
  }

  private watchFacade(options: EngineOptions): WatchFacade {
    return new WatchFacade({
      store: this.store,
      watch: new WatchStore(this.db),
      ...(options.watch ? { timing: options.watch } : {}),
      cwd: options.cwd ?? null,
      emit: (body) => this.hub.emit(body),
      hasListeners: () => this.hub.size > 0,
      plan: async (paths, preset, folderId) => {
        const planned = await planBatch(
          {
            inputs: [...paths],
            to: preset.to,
            from: preset.from,
            studio: preset.studio,
            api: preset.api,
            outputs: preset.outputs,
            naming: preset.naming,
            uploadOnce: preset.uploadOnce,
          },
          {
            service: this.services.current()?.id ?? this.services.serviceId(),
            cwd: null, // a watched file's path and the preset's folder are absolute already
            watchFolderId: folderId,
          },
        );
        return { jobs: planned.jobs, refused: planned.refused };
      },
      balance: () => this.balanceOrNull().catch(() => null),
      checkPreset: async (preset, folder) => {
        if (
          preset.api === 'legacy' &&
          this.services.mode() === 'service' &&
          !this.services.describe().legacyUrl
        )
          throw new DubdeskError('config', 'the legacy API needs the address of the legacy interface', {
            remedy: 'Set the legacy URL in the settings.',
            field: 'legacyUrl',
          });
        checkLanguages(preset, (await this.liveCodes()).codes);
        await checkOutputFolder(outRootOf({ path: folder, preset }), 'preset.outDir');
      },
      jobsChanged: (added, changed) => {
        for (const row of changed) this.changed(row);
        if (added.length > BULK) this.hub.emit({ type: 'jobs-changed', removed: [] });
        else for (const id of added) this.emitJob(id);
        if (added.length) this.runner.wake();
        this.scheduleTotals();
      },
      info: (fields, message) => this.log.logger.info(fields, message),
      warn: (fields, message) => this.log.logger.warn(fields, message),
    });
  }

  /** The machine woke up or the network came back: poll and retry network waits now. */
  wake(): void {
    this.runner.pollNow();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watch.close();
    if (this.totalsTimer) clearTimeout(this.totalsTimer);
    this.hub.clear();
    await this.services.close();
    this.log.logger.info('engine closed');
    this.log.close();
    this.db.close();
  }

  private subscribe(listener: EventListener): () => void {
    return this.hub.subscribe(listener);
  }

  private viewContext(): ViewContext {
    return { service: this.services.current()?.id ?? this.services.serviceId(), now: Date.now() };
  }

  private view(row: JobRow): JobView {
    return toView(row, this.store.outputs(row.id), this.viewContext(), this.meters.get(row.id));
  }

  private views(rows: readonly JobRow[]): JobView[] {
    const outputs = this.store.outputsOf(rows.map((r) => r.id));
    const ctx = this.viewContext();
    return rows.map((r) => toView(r, outputs.get(r.id) ?? [], ctx, this.meters.get(r.id)));
  }

  private changed(row: JobRow): void {
    if (row.state !== 'uploading' && row.state !== 'downloading') this.meters.forget(row.id);
    if (row.state === 'uploading' && !this.jobStarts.has(row.id)) this.jobStarts.set(row.id, Date.now());
    if (row.state === 'completed') {
      const started = this.jobStarts.get(row.id);
      if (started !== undefined) {
        const took = (Date.now() - started) / 1000;
        this.jobSecondsAvg = this.jobSecondsAvg === null ? took : this.jobSecondsAvg * 0.8 + took * 0.2;
      }
    }
    if (isTerminal(row.state)) this.jobStarts.delete(row.id);
    if (row.credits_charged !== null) this.balanceStale = true;
    if (this.hub.size > 0) this.hub.emit({ type: 'job', job: this.view(row) });
    this.watch.jobChanged(row);
    this.scheduleTotals();
  }

  /** A job in the queue's list, or why there is none ("already dubbed: job #N" may name a cleared one). */
  private shownJob(id: number): JobRow {
    const row = this.store.shown(id);
    if (row) return row;
    if (this.store.get(id))
      throw new DubdeskError('not-found', `job ${id} was cleared from the list`, {
        remedy: 'Its files stay where they were written; add its source with --again to dub it again.',
      });
    throw new DubdeskError('not-found', `no job ${id}`, { remedy: 'List the queue to see the job numbers.' });
  }

  private emitJob(id: number): void {
    if (this.hub.size === 0) return;
    const row = this.store.get(id);
    if (row) this.hub.emit({ type: 'job', job: this.view(row) });
  }

  /** Totals at most four times a second, after the change that asked for them. */
  private scheduleTotals(): void {
    if (this.totalsTimer || this.closed || this.hub.size === 0) return;
    this.totalsTimer = setTimeout(() => {
      this.totalsTimer = null;
      if (!this.closed) this.hub.emit({ type: 'totals', totals: this.totals() });
    }, 250);
    this.totalsTimer.unref?.();
  }

  private queuePause(): QueuePause | null {
    const raw = this.store.setting(PAUSE_KEY);
    if (!raw) return null;
    // The database is a file on disk: a value this version cannot read counts as no pause.
    try {
      return QueuePauseSchema.safeParse(JSON.parse(raw)).data ?? null;
    } catch {
      return null;
    }
  }

  private setQueuePause(p: QueuePause | null): void {
    const before = this.store.setting(PAUSE_KEY) ?? null;
    const next = p ? JSON.stringify(p) : null;
    if (before === next) return;
    this.store.setSetting(PAUSE_KEY, next);
    this.log.logger.info({ pause: p }, p ? `queue paused: ${p.message}` : 'queue resumed');
    this.runner.wake();
    this.scheduleTotals();
  }

  /**
   * The header's "remaining" is the balance minus what the queue has committed: the balance is asked when
   * nobody has yet (an idle queue), and again after dubs were charged (their estimates leave "committed" as
   * the service takes the credits), at most every few seconds and one request at a time.
   */
  private refreshBalance(): void {
    const wanted = this.balance === null || this.balanceStale;
    const due = wanted && Date.now() - this.balanceAskedAt > BALANCE_REFRESH_MS;
    if (!due || this.balanceAsking || !this.services.describe().configured) return;
    this.balanceAsking = true;
    this.balanceStale = false;
    this.balanceAskedAt = Date.now();
    void this.accountNow()
      .then(
        () => this.scheduleTotals(),
        () => {},
      )
      .finally(() => (this.balanceAsking = false));
  }

  private totals(): QueueTotals {
    this.refreshBalance();
    const counts = { ...emptyCounts(), ...this.store.countsByState() };
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const left = total - counts.completed - counts.failed - counts.canceled;
    const transfers = this.meters.overall();
    const sums = this.store.creditSums();
    const concurrency = readAppSettings(this.store).concurrency;
    const eta =
      left === 0
        ? 0
        : this.jobSecondsAvg !== null
          ? Math.round((left / concurrency) * this.jobSecondsAvg)
          : transfers.etaSeconds;
    return {
      counts,
      total,
      left,
      bytesPerSecond: transfers.bytesPerSecond,
      etaSeconds: eta,
      creditsCommitted: sums.committed,
      creditsCharged: sums.charged,
      balance: this.balance,
      creditsRemaining: this.balance === null ? null : this.balance - sums.committed,
      offline: this.offline,
      paused: this.queuePause(),
      running: this.runner.isRunning || QueueLock.held(this.db),
      resumedAfterCrash: this.resumedAfterCrash,
    };
  }

  private async ensureService() {
    try {
      return await this.services.ensure();
    } catch (e) {
      throw this.asContractError(e);
    }
  }

  /** A failure of a call to the service, as the contract says it. */
  private asContractError(e: unknown): DubdeskError {
    if (e instanceof DubdeskError) return e;
    const { error } = classify(e);
    return DubdeskError.from(error);
  }

  private async accountNow(): Promise<Account> {
    const active = await this.ensureService();
    try {
      const me = await active.clients.v2.me();
      this.balance = me.seconds;
      if (this.offline) {
        this.offline = null;
        this.scheduleTotals();
      }
      return accountOf(active.mode, active.baseUrl, me);
    } catch (e) {
      throw this.asContractError(e);
    }
  }

  /** The balance, or null when the service cannot be asked now; a rejected key still stops. */
  private async balanceOrNull(): Promise<number | null> {
    try {
      return (await this.accountNow()).balance;
    } catch (e) {
      if (e instanceof DubdeskError && (e.code === 'auth' || e.code === 'config')) throw e;
      return null;
    }
  }

  private async liveCodes(): Promise<{ codes: string[]; from: Languages['from'] }> {
    const active = await this.ensureService().catch(() => null);
    if (!active) return { codes: LANGUAGES.map((l) => l.code), from: 'fallback' };
    return targetLanguages(this.store, active.clients.langs);
  }

  private settings(): Settings {
    return settingsView(readAppSettings(this.store), this.services.describe());
  }

  /** `create`: the output folders are made now (adding), not only checked (estimating). */
  private async prepareBatch(args: MethodArgs<'estimate'>, create = false) {
    const active = await this.ensureService();
    if (args.api === 'legacy' && !active.legacyUrl)
      throw new DubdeskError('config', 'the legacy API needs the address of the legacy interface', {
        remedy: 'Set the legacy URL in the settings.',
        field: 'legacyUrl',
      });
    checkLanguages(args, (await this.liveCodes()).codes);
    const planned = await planBatch(args, {
      service: active.id,
      cwd: this.options.cwd ?? null,
      ownOutputs: (paths) => this.store.recordedOutputs(paths),
    });
    await checkOutputFolders(planned.jobs, args.outDir !== undefined, create);
    return planned;
  }

  private selectIds(sel: MethodArgs<'retryJobs'>): number[] {
    return sel.ids ?? this.store.select(sel.filter ?? {});
  }

  private act(action: Action, sel: MethodArgs<'retryJobs'>) {
    const ids = this.selectIds(sel);
    const bulk = ids.length > BULK;
    const result = applyAction(this.store, ids, action, (row) => {
      if (action === 'cancel') this.runner.abortJob(row.id);
      if (!bulk) this.changed(row);
    });
    if (bulk || result.removed.length) {
      this.hub.emit({ type: 'jobs-changed', removed: result.removed });
      this.watch.jobsChanged();
    }
    if (result.changed.length) {
      this.log.logger.info({ action, jobs: result.changed.length }, `user: ${action}`);
      this.runner.wake();
      this.scheduleTotals();
    }
    return { changed: result.changed, skipped: result.skipped };
  }

  private handlers(): DubdeskHandlers {
    return {
      appInfo: () => ({
        name: 'Dubdesk',
        version: this.options.appVersion ?? '0.0.0',
        shell: this.options.face,
        home: this.options.home,
        platform: process.platform,
      }),
      languages: async () => {
        const { codes, from } = await this.liveCodes();
        const byCode = new Map(LANGUAGES.map((l) => [l.code, l]));
        return {
          from,
          languages: codes.map((code) => ({
            code,
            name: languageName(code),
            emoji: flagEmoji(byCode.get(code)?.country ?? null),
            legacy: LEGACY_CODES.includes(code),
          })),
        };
      },
      account: () => this.accountNow(),
      testKey: async ({ apiKey, baseUrl }) => {
        const clients = this.services.trial(apiKey, baseUrl);
        try {
          const me = await clients.v2.me();
          return accountOf('service', baseUrl ?? this.services.describe().baseUrl ?? '', me);
        } catch (e) {
          throw this.asContractError(e);
        }
      },
      estimate: async (args): Promise<Estimate> => {
        const planned = await this.prepareBatch(args);
        const sorted = sortAgainstQueue(this.store, planned.jobs, false);
        const queued = [...sorted.fresh, ...sorted.failed.map((f) => f.job)];
        const { credits, unknown } = creditsOf(queued);
        const balance = await this.balanceOrNull();
        return {
          files: planned.files,
          languages: args.to,
          studio: args.studio,
          jobs: queued.length,
          credits,
          unknownLengthJobs: unknown,
          balance,
          balanceAfter: balance === null ? null : balance - credits,
          overBalance: balance !== null && queued.length > 0 && (balance <= 0 || credits > balance),
          alreadyDone: sorted.done,
          alreadyQueued: sorted.queued,
          uploadOnce: uploadOnceSavings(this.store, queued),
        };
      },
      add: async (args): Promise<AddResult> => {
        const planned = await this.prepareBatch(args, true);
        const sorted = sortAgainstQueue(this.store, planned.jobs, args.again);
        const queued = [...sorted.fresh, ...sorted.failed.map((f) => f.job)];
        const { credits, unknown } = creditsOf(queued);
        const balance = queued.length ? await this.balanceOrNull() : this.balance;
        if (queued.length && balance !== null && !args.force && (balance <= 0 || credits > balance))
          throw new DubdeskError(
            'credits',
            `this batch needs about ${credits} credits (1 credit = 1 second${args.studio ? ', studio quality counts double' : ''}); the balance is ${balance}`,
            { remedy: 'Add credits, dub fewer files or languages, or add it anyway.' },
          );
        const added: number[] = [];
        const retried: number[] = [];
        // What another add (a second face, a watched folder) queued while this one was asking the balance.
        const queuedMeanwhile: number[] = [];
        this.db
          .transaction(() => {
            for (const { id, job } of sorted.failed) {
              if (this.store.get(id)?.state !== 'failed') {
                queuedMeanwhile.push(id);
                continue;
              }
              // Adding a failed job again retries it; where its results go may change, what was dubbed may not.
              this.store.record(id, 'user', {
                outputs_wanted: job.outputs_wanted,
                out_dir: job.out_dir,
                naming: job.naming,
                upload_once: job.upload_once,
              });
              transition(this.store, id, 'user', { type: 'retry' });
              retried.push(id);
            }
          })
          .immediate();
        // In transactions of 250 jobs, letting the event loop breathe between them: a face stays
        // responsive while 10,000 jobs go in. A job another add queued in between is not added twice (the
        // insert checks, in the same statement), so adding the batch again after a crash loses nothing.
        const now = Date.now();
        for (let i = 0; i < sorted.fresh.length; i += ADD_CHUNK) {
          if (i > 0) await new Promise((r) => setImmediate(r));
          this.db
            .transaction(() => {
              for (const job of sorted.fresh.slice(i, i + ADD_CHUNK)) {
                const id = enqueueUnlessLive(this.store, job, now, false);
                if (id !== null) added.push(id);
                else {
                  const live = this.store.live(job.source, job.dest_lang);
                  if (live) queuedMeanwhile.push(live.id);
                }
              }
            })
            .immediate();
        }
        if (added.length) rememberBatch(this.store, args.to);
        this.log.logger.info({ added: added.length, retried: retried.length, credits }, 'batch added');
        if (added.length + retried.length > BULK) {
          this.hub.emit({ type: 'jobs-changed', removed: [] });
          this.watch.jobsChanged();
        } else for (const id of [...added, ...retried]) this.emitJob(id);
        this.runner.wake();
        this.scheduleTotals();
        return {
          added,
          alreadyQueued: [...sorted.queued, ...queuedMeanwhile],
          retried,
          alreadyDone: sorted.done,
          refused: planned.refused,
          credits,
          unknownLengthJobs: unknown,
          balance,
        };
      },
      listJobs: ({ filter, offset, limit }) => {
        const { total, rows } = this.store.page(filter, offset, limit);
        return { total, offset, jobs: this.views(rows) };
      },
      listSources: ({ filter, offset, limit }) => {
        const { total, groups } = this.store.sourcesPage(filter, offset, limit);
        const views = new Map(this.views(groups.flatMap((g) => g.rows)).map((v) => [v.id, v]));
        const sources: SourceRow[] = groups.map((g) => {
          const first = g.rows[0];
          return {
            source: g.source,
            sourceKind: first?.source_kind ?? 'file',
            sourceName: first?.source_name ?? g.source,
            durationSeconds: first?.duration ?? null,
            jobs: g.rows.map((r) => views.get(r.id)).filter((v): v is JobView => v !== undefined),
          };
        });
        return { total, offset, sources };
      },
      getJob: ({ id }) => {
        const row = this.shownJob(id);
        return toDetail(this.view(row), row, this.store.history(id));
      },
      jobLog: ({ id, limit }) => {
        const row = this.shownJob(id);
        return { lines: this.log.jobLines(id, limit, row.created_at) };
      },
      retryJobs: (sel) => this.act('retry', sel),
      cancelJobs: (sel) => this.act('cancel', sel),
      pauseJobs: (sel) => this.act('pause', sel),
      resumeJobs: (sel) => this.act('resume', sel),
      clearJobs: (sel) => this.act('clear', sel),
      totals: () => this.totals(),
      pauseQueue: () => {
        this.setQueuePause({ reason: 'user', message: 'paused' });
        return this.totals();
      },
      resumeQueue: () => {
        this.setQueuePause(null);
        return this.totals();
      },
      getSettings: () => this.settings(),
      setSettings: async (patch) => {
        const { service, ...rest } = patch;
        const outDir = rest.defaults?.outDir;
        // Kept as a full path: the faces that use it (window, web page) have no folder to start a relative one.
        if (rest.defaults && outDir)
          rest.defaults = {
            ...rest.defaults,
            outDir: absolutePath(outDir, this.options.cwd ?? null, 'defaults.outDir'),
          };
        if (Object.keys(rest).length) writeAppSettings(this.store, rest);
        if (service) {
          await this.services.update(service);
          this.secretsCache = null;
          // Another service (or key) has another balance: the old one must not show, the new one is asked.
          this.balance = null;
          this.balanceAskedAt = 0;
          this.scheduleTotals();
          this.log.logger.info({ mode: this.services.mode() }, 'service settings changed');
          // Work goes on with the new service at once, or stops clearly until it is usable.
          try {
            await this.services.ensure();
            if (this.queuePause()?.reason === 'auth') this.setQueuePause(null);
          } catch (e) {
            const err = this.asContractError(e);
            if (err.code === 'auth' || err.code === 'config')
              this.setQueuePause({ reason: 'auth', message: err.message });
          }
          this.hub.emit({ type: 'jobs-changed', removed: [] });
        }
        const settings = this.settings();
        this.hub.emit({ type: 'settings', settings });
        this.runner.wake();
        return settings;
      },
      ...this.watch.handlers(),
    };
  }
}
