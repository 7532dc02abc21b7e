import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { ProfileV2 } from '../../shared/api/v2';
import type { ApiGeneration, JobView } from '../../shared/domain';
import { createServiceClients } from './api/clients';
import { targetLanguages, type LangsClient, type LanguageSet } from './api/langs';
import { JobStore, type JobRow } from './db/jobs';
import { openDatabase, type Db } from './db/open';
import { ConfigError, UsageError } from './errors';
import type { Clients } from './flows/context';
import { AddRequestSchema, type AddRequestInput } from '../../shared/requests';
import { checkLanguages, planJobs, type Plan } from './plan';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './queue/backoff';
import { Runner, type RunOptions, type RunOutcome } from './queue/runner';
import { toView, type Transfer } from './views';

export interface ServiceConfig {
  baseUrl: string;
  /** Root of the legacy interface; only needed for --api legacy. */
  legacyUrl: string | null;
  apiKey: string;
}

export interface EngineOptions {
  home: string;
  service: ServiceConfig;
  backoff?: BackoffPolicy;
  leaseMs?: number;
  maxServerAttempts?: number;
}

export interface EngineEvents {
  job: [JobView];
}

interface Meter {
  startedAt: number;
  lastAt: number;
  lastBytes: number;
  rate: number | null;
  percent: number | null;
  eta: number | null;
  emittedAt: number;
}

/**
 * The facade every face uses (CLI, desktop, serve): add, list, estimate, retry, cancel, run,
 * and a stream of job changes. Plain Node; knows nothing of Electron.
 */
export class Engine extends EventEmitter<EngineEvents> {
  readonly store: JobStore;
  private readonly db: Db;
  private readonly clients: Clients;
  private readonly langs: LangsClient;
  private readonly runner: Runner;
  private readonly meters = new Map<number, Meter>();

  constructor(private readonly options: EngineOptions) {
    super();
    this.db = openDatabase(join(options.home, 'dubdesk.db'));
    this.store = new JobStore(this.db);
    const { baseUrl, legacyUrl, apiKey } = options.service;
    const service = createServiceClients({ baseUrl, legacyUrl, apiKey });
    this.clients = service;
    this.langs = service.langs;
    this.runner = new Runner(
      this.store,
      this.clients,
      {
        home: options.home,
        backoff: options.backoff ?? DEFAULT_BACKOFF,
        leaseMs: options.leaseMs ?? 60_000,
        maxServerAttempts: options.maxServerAttempts ?? 30,
      },
      {
        changed: (row) => this.emitRow(row),
        progress: (id, t, n) => this.onProgress(id, t, n),
      },
    );
  }

  languages(): Promise<LanguageSet> {
    return targetLanguages(this.store, this.langs);
  }

  /** Validates the request and its languages (UsageError) and probes every input; nothing is stored yet. */
  async plan(input: AddRequestInput): Promise<Plan> {
    const parsed = AddRequestSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'invalid'}`);
    }
    const req = parsed.data;
    if (req.api === 'legacy' && !this.options.service.legacyUrl) {
      throw new ConfigError('--api legacy needs the legacy root: set --legacy-url or DUBDESK_LEGACY_URL');
    }
    checkLanguages(req, (await this.languages()).codes);
    return planJobs(req);
  }

  /** Stores planned jobs; a source+language already live is not added twice, a failed one is retried. */
  add(plan: Plan): { added: number[]; existing: number[]; retried: number[] } {
    const r = this.store.add(plan.jobs);
    for (const id of r.failed) {
      // Adding a failed job again retries it; where its results go may change, what was dubbed may not.
      const row = this.store.get(id);
      const fresh = plan.jobs.find((j) => j.source === row?.source && j.dest_lang === row?.dest_lang);
      if (fresh) this.store.force(id, { outputs_wanted: fresh.outputs_wanted, out_dir: fresh.out_dir });
      this.retry(id);
    }
    for (const id of [...r.added, ...r.failed]) this.emitId(id);
    return { added: r.added, existing: r.existing, retried: r.failed };
  }

  profile(): Promise<ProfileV2> {
    return this.clients.v2.me();
  }

  /** The credit balance, from `/me` of the generation's family (legacy has none: its account is the same). */
  async balance(api: ApiGeneration = 'v2'): Promise<number> {
    return api === 'v1' ? (await this.clients.v1.me()).seconds : (await this.clients.v2.me()).seconds;
  }

  list(): JobView[] {
    const outputs = new Map<number, ReturnType<JobStore['allOutputs']>>();
    for (const o of this.store.allOutputs()) outputs.set(o.job_id, [...(outputs.get(o.job_id) ?? []), o]);
    return this.store.all().map((row) => toView(row, outputs.get(row.id) ?? [], this.transfer(row.id)));
  }

  get(id: number): JobView | undefined {
    const row = this.store.get(id);
    return row ? toView(row, this.store.outputs(id), this.transfer(id)) : undefined;
  }

  /** Pauses new submissions after a 402 until the next run; the reason, or null. */
  queuePaused(): string | null {
    return this.store.setting('queue.paused') ?? null;
  }

  /**
   * Tries a failed or canceled job again from where it stopped: a dub the service already made is fetched,
   * not paid for twice; only a dub that failed or vanished on the service is made anew.
   */
  retry(id: number): JobView {
    const row = this.store.get(id);
    if (!row) throw new UsageError(`no job ${id}; see \`dubdesk status\``);
    if (row.state !== 'failed' && row.state !== 'canceled')
      throw new UsageError(`job ${id} is ${row.state}; only failed or canceled jobs can be retried`);
    const reset = { error: null, error_kind: null, attempts: 0, next_run_at: 0, waiting: null };
    if (row.error_kind === 'remote-failed' || row.error_kind === 'remote-missing') {
      const abandoned = [
        ...(JSON.parse(row.abandoned_remote_ids) as string[]),
        ...(row.remote_id ? [row.remote_id] : []),
      ];
      this.store.requeue(id, JSON.stringify(abandoned));
    } else if (row.step === 'fetch') {
      this.store.force(id, { ...reset, state: 'downloading' });
    } else if (row.step === 'track') {
      this.store.force(id, { ...reset, state: 'submitted' });
    } else {
      this.store.force(id, { ...reset, state: 'queued' });
    }
    return this.emitId(id);
  }

  retryFailed(): number[] {
    const ids = this.store
      .all()
      .filter((j) => j.state === 'failed')
      .map((j) => j.id);
    for (const id of ids) this.retry(id);
    return ids;
  }

  /** Stops a job for good (the service has no cancel: a dub it already runs is simply not fetched). */
  cancel(id: number): JobView {
    const row = this.store.get(id);
    if (!row) throw new UsageError(`no job ${id}; see \`dubdesk status\``);
    if (row.state === 'completed' || row.state === 'canceled')
      throw new UsageError(`job ${id} is already ${row.state}`);
    this.store.force(id, { state: 'canceled', waiting: null });
    this.runner.abortJob(id);
    return this.emitId(id);
  }

  run(opts: RunOptions): Promise<RunOutcome> {
    return this.runner.run(opts);
  }

  close(): void {
    this.removeAllListeners();
    this.db.close();
  }

  private emitId(id: number): JobView {
    const view = this.get(id);
    if (!view) throw new Error(`job ${id} vanished`);
    this.emit('job', view);
    return view;
  }

  private emitRow(row: JobRow): void {
    if (row.state !== 'uploading' && row.state !== 'downloading') this.meters.delete(row.id);
    this.emit('job', toView(row, this.store.outputs(row.id), this.transfer(row.id)));
  }

  private transfer(id: number): Transfer | undefined {
    const m = this.meters.get(id);
    return m ? { bytesPerSecond: m.rate, etaSeconds: m.eta, percent: m.percent } : undefined;
  }

  /** Speed as a moving average, ETA from it; job events at most four times a second per job. */
  private onProgress(id: number, transferred: number, total: number | null): void {
    const now = Date.now();
    let m = this.meters.get(id);
    if (!m || transferred < m.lastBytes) {
      m = {
        startedAt: now,
        lastAt: now,
        lastBytes: transferred,
        rate: null,
        percent: null,
        eta: null,
        emittedAt: 0,
      };
      this.meters.set(id, m);
    }
    const dt = (now - m.lastAt) / 1000;
    if (dt >= 0.2) {
      const instant = (transferred - m.lastBytes) / dt;
      m.rate = m.rate === null ? instant : m.rate * 0.7 + instant * 0.3;
      m.lastAt = now;
      m.lastBytes = transferred;
    }
    m.percent = total ? Math.min(100, Math.round((transferred / total) * 1000) / 10) : null;
    m.eta = total && m.rate ? Math.max(0, Math.round((total - transferred) / m.rate)) : null;
    if (now - m.emittedAt >= 250 || (total !== null && transferred >= total)) {
      m.emittedAt = now;
      const row = this.store.get(id);
      if (row) this.emit('job', toView(row, this.store.outputs(id), this.transfer(id)));
    }
  }
}
