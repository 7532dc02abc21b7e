import type { QueueTotals } from '../../../shared/contract/queue';
import type { Db } from '../db/open';
import { LeaseLostError, type JobRow, type JobStore } from '../db/jobs';
import type { Clients, StepContext } from '../flows/context';
import { LeasedJob } from '../flows/context';
import { fetchOutputs } from '../flows/fetch-outputs';
import { submit } from '../flows/submit';
import { SeenDubs } from '../flows/seen-dubs';
import { pollOnce } from '../flows/track';
import { StopAtStep, classify, type JobError } from '../jobs/errors';
import { endNetworkWaits, transition, type LifeEvent } from '../jobs/life';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { HEARTBEAT_MS, QueueLock } from './lock';

export interface RunOptions {
  /** Return once no job is left unfinished; otherwise run until aborted. */
  untilDone: boolean;
  /** Uploads at once, and downloads at once (separate limits); a function is read again at every claim. */
  concurrency: number | (() => number);
  /** The shortest time between two polls; the interval grows while nothing moves. A function is read each poll. */
  pollIntervalMs: number | (() => number);
  /** Stops at once: transfers in flight are cut (every step resumes from what it recorded). */
  signal?: AbortSignal;
  /**
   * Stops gently: nothing new starts, no poll is sent, each running step ends after the HTTP call it is in,
   * and the run returns once nothing runs (a face quitting; `signal` still cuts it short).
   */
  drain?: AbortSignal;
  /** Watch the folders meanwhile (the engine does; default: when not `untilDone`). */
  watch?: boolean;
}

const valueOf = (v: number | (() => number)): number => (typeof v === 'function' ? v() : v);

/** Why a run returned: all done, stopped by the user, halted by the service, or the queue is paused. */
export type RunOutcome = 'done' | 'aborted' | 'auth' | 'credits' | 'paused';

export type QueuePause = NonNullable<QueueTotals['paused']>;

export interface RunnerHooks {
  changed(row: JobRow): void;
  progress(jobId: number, transferred: number, total: number | null): void;
  /** The service became unreachable (a reason) or reachable again (null). */
  connectivity(offline: string | null): void;
  /** Jobs the last run left mid-step when it died, found by this one. */
  resumed(count: number): void;
}

/** What the runner needs from its engine; the service may change while it runs (new key, sandbox). */
export interface RunnerEnv {
  db: Db;
  store: JobStore;
  home: string;
  clients(): Clients;
  /** Jobs belong to the service that made them; only those of the current one are worked. */
  service(): string;
  queuePause(): QueuePause | null;
  setQueuePause(pause: QueuePause | null): void;
  /** The balance now, to notice credits were added while the queue waits for them. */
  balance(): Promise<number>;
  backoff: BackoffPolicy;
  /**
   * Failures of a step the service keeps misbehaving at (5xx, broken answers, bad links) before the job
   * fails. Waits for the network or the disk do not count, and a transfer that got further starts the
   * count again.
   */
  maxServiceAttempts: number;
}

type Step = 'submit' | 'fetch';
const CREDITS_RECHECK_MS = 60_000;

/**
 * The scheduler: holds the queue lock, claims due jobs under tokens, runs their step, turns every failure
 * into one life event (through `classify`), and polls the service for the dubs it tracks.
 */
export class Runner {
  private readonly active = new Map<
    number,
    { step: Step; controller: AbortController; done: Promise<void> }
  >();
  private wakeUp: () => void = () => {};
  private running = false;
  private readonly seen = new SeenDubs();
  private pollSoon = false;
  /**
   * Waits in a row per job (network, disk, a transfer resuming), for their backoff. Kept apart from the
   * job's `attempts`, which count only the service's failures; a new run starts the backoff again.
   */
  private readonly waits = new Map<number, number>();

  constructor(
    private readonly env: RunnerEnv,
    private readonly hooks: RunnerHooks,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Looks again now (a job was added, a setting changed) instead of at the next tick. */
  wake(): void {
    this.wakeUp();
  }

  /**
   * After the machine slept or the network came back: poll the service now, and retry at once the jobs
   * that were waiting for the network, instead of at the end of their backoff.
   */
  pollNow(): void {
    this.pollSoon = true;
    this.wakeUp();
  }

  async run(opts: RunOptions): Promise<RunOutcome> {
    const { store } = this.env;
    const lock = QueueLock.acquire(this.env.db, this.env.home);
    this.running = true;
    const signal = opts.signal ?? new AbortController().signal;
    this.recover();
    // A new run asks the service again: a key or a balance may have been fixed since the last one.
    const pause = this.env.queuePause();
    if (pause && pause.reason !== 'user') this.env.setQueuePause(null);
    const pollMs = () => valueOf(opts.pollIntervalMs);
    const draining = () => opts.drain?.aborted === true;
    let pollAt = 0;
    let pollInterval = pollMs();
    let polling: Promise<void> | null = null;
    let pollFailures = 0;
    let heartbeatAt = Date.now();
    let creditsCheckAt = Date.now() + CREDITS_RECHECK_MS;
    const onAbort = () => this.wakeUp();
    signal.addEventListener('abort', onAbort);
    opts.drain?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        if (signal.aborted) return 'aborted';
        if (draining() && this.active.size === 0 && !polling) return 'aborted';
        const now = Date.now();
        if (this.pollSoon) {
          this.pollSoon = false;
          pollAt = 0;
          pollInterval = pollMs();
          endNetworkWaits(store, this.env.service(), now);
        }
        if (now - heartbeatAt >= HEARTBEAT_MS) {
          heartbeatAt = now;
          if (!lock.heartbeat()) return 'aborted'; // another process took the queue over: stop at once
        }
        const service = this.env.service();
        const { paused, due, tracking } = store.read(this.look, service);
        if (paused?.reason === 'auth' && opts.untilDone && this.active.size === 0 && !polling) return 'auth';
        const concurrency = valueOf(opts.concurrency);
        // One read tells whether anything is due at each step; a claim (a write transaction) only then.
        const isDue = (t: number | null) => t !== null && t <= now && !draining();
        if (!paused && isDue(due.submit)) this.claim('submit', concurrency, service, signal, opts.drain);
        if ((!paused || paused.reason === 'credits') && isDue(due.fetch))
          this.claim('fetch', concurrency, service, signal, opts.drain);

        const mayPoll = (!paused || paused.reason === 'credits') && !draining();
        if (tracking > 0 && mayPoll && !polling && Date.now() >= pollAt) {
          polling = pollOnce(store, this.env.clients(), service, signal, this.seen)
            .then(({ changed, failure }) => {
              for (const row of changed) this.hooks.changed(row);
              if (failure) throw failure;
              this.hooks.connectivity(null);
              pollFailures = 0;
              const base = pollMs();
              const slowest = Math.max(base, Math.min(base * 6, 30_000));
              pollInterval = changed.length ? base : Math.min(pollInterval * 1.5, slowest);
              pollAt = Date.now() + pollInterval;
            })
            .catch((e: unknown) => this.pollFailed(classify(e), ++pollFailures, service))
            .then((retryAt) => {
              if (typeof retryAt === 'number') pollAt = retryAt;
            })
            .finally(() => {
              polling = null;
              this.wakeUp();
            });
        }

        if (paused?.reason === 'credits' && !opts.untilDone && Date.now() >= creditsCheckAt) {
          creditsCheckAt = Date.now() + CREDITS_RECHECK_MS;
          void this.env
            .balance()
            .then((b) => {
              if (b > 0 && this.env.queuePause()?.reason === 'credits') this.env.setQueuePause(null);
            })
            .catch(() => {});
        }

        const idle = this.active.size === 0 && !polling;
        const after = store.read(this.lookAfter, service, opts.untilDone && idle, paused);
        if (opts.untilDone && idle) {
          if (after.unfinished === 0) return 'done';
          // Out of credits: nothing more can start; what was already running has finished.
          if (after.inFlight === 0) return 'credits';
          if (paused?.reason === 'user') return 'paused';
        }
        const { nextDue } = after;
        const candidates = [
          1000,
          ...(nextDue !== null ? [nextDue - Date.now()] : []),
          ...(tracking ? [pollAt - Date.now()] : []),
        ];
        await this.sleep(Math.max(10, Math.min(...candidates)));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      opts.drain?.removeEventListener('abort', onAbort);
      for (const a of this.active.values()) a.controller.abort();
      await Promise.allSettled([...this.active.values()].map((a) => a.done));
      if (polling) await polling;
      lock.release();
      this.running = false;
    }
  }

  /** What each turn of the loop looks at first, read together (see `JobStore.read`). */
  private readonly look = (service: string) => ({
    paused: this.env.queuePause(),
    due: {
      submit: this.env.store.nextDueAt(service, 'submit'),
      fetch: this.env.store.nextDueAt(service, 'fetch'),
    },
    tracking: this.env.store.trackingCount(service),
  });

  /** What it looks at after claiming and polling: when to wake, and, once idle, whether the run is over. */
  private readonly lookAfter = (service: string, idleUntilDone: boolean, paused: QueuePause | null) => {
    const { store } = this.env;
    return {
      nextDue: store.nextDueAt(service),
      unfinished: idleUntilDone ? store.unfinishedCount(service) : null,
      /** Dubs the service is still making or Dubdesk still downloading (asked only when out of credits). */
      inFlight:
        idleUntilDone && paused?.reason === 'credits'
          ? store.trackingCount(service) + store.liveInStep('fetch', service)
          : null,
    };
  };

  /**
   * Holding the lock, every token still set was left by a worker that died: free them, and put jobs caught
   * mid-upload back in the queue (they resume from what was recorded). Their number is the crash banner's.
   */
  private recover(): void {
    const { store } = this.env;
    const leased = store.leasedCount();
    store.resetLeases();
    for (const row of store.page({ states: ['uploading'] }, 0, 100_000).rows) {
      try {
        this.hooks.changed(transition(store, row.id, 'user', { type: 'interrupted' }));
      } catch {
        /* moved meanwhile */
      }
    }
    if (leased > 0) this.hooks.resumed(leased);
  }

  /** A failed poll: offline marks the tracked jobs as waiting; a rejected key halts the queue. */
  private pollFailed(err: JobError, failures: number, service: string): number {
    if (err.retry === 'halt-auth') this.env.setQueuePause({ reason: 'auth', message: err.error.message });
    if (err.error.code === 'offline') {
      this.hooks.connectivity(err.error.message);
      for (const job of this.env.store.tracking(service)) {
        if (job.waiting_code === 'offline') continue;
        try {
          const row = transition(this.env.store, job.id, 'tracked', {
            type: 'halt',
            waiting: { code: 'offline', message: 'waiting for the network' },
          });
          this.hooks.changed(row);
        } catch {
          /* changed meanwhile */
        }
      }
    }
    return Date.now() + backoffDelay(failures, this.env.backoff);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private claim(
    step: Step,
    concurrency: number,
    service: string,
    runSignal: AbortSignal,
    drain: AbortSignal | undefined,
  ): void {
    const running = [...this.active.values()].filter((a) => a.step === step).length;
    for (const { row, token } of this.env.store.claim(step, concurrency - running, service, this.stillWorked))
      this.start(step, row, token, runSignal, drain);
  }

  private start(
    step: Step,
    row: JobRow,
    token: string,
    runSignal: AbortSignal,
    drain: AbortSignal | undefined,
  ): void {
    const { store } = this.env;
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, runSignal]);
    const stopping = () =>
      signal.aborted || drain?.aborted === true || this.env.queuePause()?.reason === 'user';
    const job = new LeasedJob(
      store,
      row,
      token,
      (r) => this.hooks.changed(r),
      stopping,
      (j) => this.finishStep(j, token),
    );
    const ctx: StepContext = {
      store,
      clients: this.env.clients(),
      signal,
      progress: this.hooks.progress,
      seen: this.seen,
    };
    // A cancel or retry from another process takes the token away: notice it and stop the transfer.
    const watch = setInterval(() => {
      if (!store.holds(row.id, token)) controller.abort();
    }, 1000);
    const work = step === 'submit' ? submit(ctx, job) : fetchOutputs(ctx, job);
    let released = false;
    const done = work
      .then(() => {
        this.waits.delete(row.id);
        this.hooks.connectivity(null);
        // The step finished; a pause asked meanwhile takes effect now, and the claim ends in the same
        // transaction (one commit where there were a read and a write), unless the step's last change
        // (`LeasedJob.end`) committed them already.
        if (!job.ended) store.tx(this.finishStep, job, token);
        released = true;
      })
      .catch((e: unknown) => this.failed(job, e, signal))
      .finally(() => {
        clearInterval(watch);
        if (!released) store.release(row.id, token);
        this.active.delete(row.id);
        this.wakeUp();
      });
    this.active.set(row.id, { step, controller, done });
  }

  /** After a step that succeeded: a pause asked meanwhile takes effect, and the claim is given back. */
  private readonly finishStep = (job: LeasedJob, token: string): void => {
    if (this.env.store.pauseRequested(job.row.id)) this.apply(job, { type: 'paused-at-step' });
    this.env.store.release(job.row.id, token);
  };

  /**
   * A due job that one of this run's workers still holds in `active`: its claim was taken from it (a cancel
   * and a retry from another process) before its watch noticed. It is stopped now, and the job is claimed
   * again only once that worker is gone: two workers never write one job's files.
   */
  private readonly stillWorked = (id: number): boolean => {
    const worker = this.active.get(id);
    worker?.controller.abort();
    return worker !== undefined;
  };

  /** Cancels the worker of one job, if one is running it. */
  abortJob(id: number): void {
    this.active.get(id)?.controller.abort();
  }

  private apply(job: LeasedJob, event: LifeEvent): void {
    try {
      job.apply(event);
    } catch (e) {
      if (!(e instanceof LeaseLostError)) throw e;
    }
  }

  /** The one place a failed step turns into the job's next state. */
  private failed(job: LeasedJob, e: unknown, signal: AbortSignal): void {
    if (e instanceof LeaseLostError) return;
    const err = classify(e);
    const pauseAsked =
      (e instanceof StopAtStep && e.why === 'pause') || this.env.store.pauseRequested(job.row.id);
    if (err.retry === 'interrupted' || signal.aborted) {
      return this.apply(job, { type: pauseAsked ? 'paused-at-step' : 'interrupted' });
    }
    if (err.error.code === 'offline') this.hooks.connectivity(err.error.message);
    if (err.retry !== 'wait') this.waits.delete(job.row.id);
    if (err.retry === 'halt-auth') this.env.setQueuePause({ reason: 'auth', message: err.error.message });
    if (err.retry === 'halt-credits')
      this.env.setQueuePause({ reason: 'credits', message: 'out of credits' });
    // The user paused the job during the step: it stops here, not in a wait (nothing claims a job whose pause
    // is pending, so it would wait for ever). A definitive failure still fails it.
    if (pauseAsked && err.retry !== 'never') return this.apply(job, { type: 'paused-at-step' });
    const attempts = job.row.attempts + 1;
    const runAt = Date.now() + backoffDelay(attempts, this.env.backoff);
    switch (err.retry) {
      case 'halt-auth':
        return this.apply(job, { type: 'halt', waiting: { code: 'auth', message: 'API key rejected' } });
      case 'halt-credits':
        return this.apply(job, {
          type: 'halt',
          waiting: { code: 'credits', message: 'out of credits: add credits and the queue goes on' },
        });
      case 'wait': {
        const waits = (this.waits.get(job.row.id) ?? 0) + 1;
        this.waits.set(job.row.id, waits);
        return this.apply(job, {
          type: 'wait',
          attempts: err.madeProgress ? 0 : job.row.attempts,
          runAt: Date.now() + backoffDelay(waits, this.env.backoff),
          waiting: {
            code: err.waitingCode,
            message: err.waitingCode === 'offline' ? 'waiting for the network' : err.error.message,
          },
        });
      }
      case 'bounded':
        if (attempts >= this.env.maxServiceAttempts)
          return this.apply(job, {
            type: 'fail',
            error: { ...err.error, message: `gave up after ${attempts} attempts: ${err.error.message}` },
          });
        return this.apply(job, {
          type: 'wait',
          attempts,
          runAt,
          waiting: { code: 'retry', message: `retrying after: ${err.error.message}` },
        });
      default:
        return this.apply(job, { type: 'fail', error: err.error });
    }
  }
}
