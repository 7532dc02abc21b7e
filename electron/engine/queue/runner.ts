import { ApiError } from '../api/errors';
import { LeaseLostError, type JobRow, type JobStore } from '../db/jobs';
import type { Clients, StepContext } from '../flows/context';
import { LeasedJob } from '../flows/context';
import { fetchOutputs } from '../flows/fetch-outputs';
import { submit } from '../flows/submit';
import { pollOnce } from '../flows/track';
import { ConfigError } from '../errors';
import { InputError } from '../media/probe';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { acquireRunLock } from './run-lock';

export interface RunOptions {
  /** Return once no job is left unfinished; otherwise run until aborted. */
  untilDone: boolean;
  /** Uploads at once, and downloads at once (separate limits). */
  concurrency: number;
  /** The shortest time between two polls; the interval grows while nothing moves. */
  pollIntervalMs: number;
  signal?: AbortSignal;
}

/** Why a run returned: all done, stopped by the user, or halted by the service. */
export type RunOutcome = 'done' | 'aborted' | 'auth' | 'credits';

export interface RunnerHooks {
  changed(row: JobRow): void;
  progress(jobId: number, transferred: number, total: number | null): void;
}

export interface RunnerConfig {
  home: string;
  backoff: BackoffPolicy;
  leaseMs: number;
  /** Server errors (5xx, 502) give up after this many attempts; network errors never do. */
  maxServerAttempts: number;
}

type Step = 'submit' | 'fetch';

/**
 * The scheduler: claims due jobs under leases, runs their step, records the outcome (with persisted backoff),
 * and polls the service for tracked dubs. One runner per data folder, enforced by a lock file.
 */
export class Runner {
  private readonly active = new Map<
    number,
    { step: Step; controller: AbortController; done: Promise<void> }
  >();
  private halted: 'auth' | 'credits' | null = null;
  private wakeUp: () => void = () => {};

  constructor(
    private readonly store: JobStore,
    private readonly clients: Clients,
    private readonly config: RunnerConfig,
    private readonly hooks: RunnerHooks,
  ) {}

  async run(opts: RunOptions): Promise<RunOutcome> {
    const unlock = acquireRunLock(this.config.home);
    const signal = opts.signal ?? new AbortController().signal;
    this.store.resetLeases(true);
    this.store.setSetting('queue.paused', null);
    this.halted = null;
    let pollAt = 0;
    let pollInterval = opts.pollIntervalMs;
    let polling: Promise<void> | null = null;
    let pollFailures = 0;
    const onAbort = () => this.wakeUp();
    signal.addEventListener('abort', onAbort);
    try {
      for (;;) {
        if (signal.aborted) return 'aborted';
        if (this.halted === 'auth') return 'auth';
        const running = (step: Step) => [...this.active.values()].filter((a) => a.step === step).length;
        if (!this.halted) this.claim('submit', opts.concurrency - running('submit'), signal);
        this.claim('fetch', opts.concurrency - running('fetch'), signal);

        const tracking = this.store.trackingCount();
        if (tracking > 0 && !polling && Date.now() >= pollAt) {
          polling = pollOnce(this.store, this.clients, signal)
            .then(({ changed }) => {
              for (const row of changed) this.hooks.changed(row);
              pollFailures = 0;
              pollInterval = changed.length
                ? opts.pollIntervalMs
                : Math.min(
                    pollInterval * 1.5,
                    Math.max(opts.pollIntervalMs, Math.min(opts.pollIntervalMs * 6, 30_000)),
                  );
              pollAt = Date.now() + pollInterval;
            })
            .catch((e: unknown) => {
              if (e instanceof ApiError && e.kind === 'auth') this.halted = 'auth';
              pollFailures++;
              pollAt = Date.now() + backoffDelay(pollFailures, this.config.backoff);
              if (e instanceof ApiError && e.kind === 'network') this.markTracked('waiting for network');
            })
            .finally(() => {
              polling = null;
              this.wakeUp();
            });
        }

        const idle = this.active.size === 0 && !polling;
        if (opts.untilDone && idle) {
          if (this.store.unfinishedCount() === 0) return 'done';
          // Out of credits: nothing more can start; what was already running has finished.
          if (
            this.halted === 'credits' &&
            this.store.trackingCount() === 0 &&
            this.store.liveInStep('fetch') === 0
          )
            return 'credits';
        }
        const nextDue = this.store.nextDueAt();
        const candidates = [
          1000,
          ...(nextDue !== null ? [nextDue - Date.now()] : []),
          ...(tracking ? [pollAt - Date.now()] : []),
        ];
        await this.sleep(Math.max(10, Math.min(...candidates)));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      for (const a of this.active.values()) a.controller.abort();
      await Promise.allSettled([...this.active.values()].map((a) => a.done));
      if (polling) await polling;
      unlock();
    }
  }

  private markTracked(waiting: string): void {
    for (const job of this.store.tracking()) {
      if (job.waiting === waiting) continue;
      try {
        this.store.patchTracked(job.id, { waiting });
        this.hooks.changed({ ...job, waiting });
      } catch {
        /* changed meanwhile */
      }
    }
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

  private claim(step: Step, room: number, runSignal: AbortSignal): void {
    for (const { row, token } of this.store.claim(step, room, this.config.leaseMs))
      this.start(step, row, token, runSignal);
  }

  private start(step: Step, row: JobRow, token: string, runSignal: AbortSignal): void {
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, runSignal]);
    const job = new LeasedJob(this.store, row, token, (r) => this.hooks.changed(r));
    const ctx: StepContext = {
      store: this.store,
      clients: this.clients,
      signal,
      progress: this.hooks.progress,
    };
    // Renewing often doubles as noticing a cancel or retry from another process: the lease is gone, so stop.
    const renew = setInterval(
      () => {
        if (!this.store.renew(row.id, token, this.config.leaseMs)) controller.abort();
      },
      Math.min(2000, this.config.leaseMs / 3),
    );
    const work = step === 'submit' ? submit(ctx, job) : fetchOutputs(ctx, job);
    const done = work
      .catch((e: unknown) => this.failed(job, step, e, signal))
      .finally(() => {
        clearInterval(renew);
        this.store.release(row.id, token);
        this.active.delete(row.id);
        this.wakeUp();
      });
    this.active.set(row.id, { step, controller, done });
  }

  /** Cancels the worker of one job, if one is running it. */
  abortJob(id: number): void {
    this.active.get(id)?.controller.abort();
  }

  private failed(job: LeasedJob, step: Step, e: unknown, signal: AbortSignal): void {
    if (e instanceof LeaseLostError) return;
    const idleState = step === 'submit' ? 'queued' : 'downloading';
    try {
      if (signal.aborted || (e instanceof ApiError && e.kind === 'canceled')) {
        job.patch({ state: idleState, waiting: null });
        return;
      }
      if (e instanceof ApiError) {
        if (e.kind === 'auth') {
          this.halted = 'auth';
          job.patch({ state: idleState, waiting: 'API key rejected' });
          return;
        }
        if (e.kind === 'credits') {
          this.halted ??= 'credits';
          this.store.setSetting('queue.paused', 'credits');
          job.patch({ state: idleState, waiting: 'out of credits: add credits, then run the queue again' });
          return;
        }
        if (e.transient || e.kind === 'protocol') {
          const attempts = job.row.attempts + 1;
          if (e.kind !== 'network' && attempts >= this.config.maxServerAttempts) {
            job.patch({
              state: 'failed',
              attempts,
              error: `gave up after ${attempts} attempts: ${e.message}`,
              error_kind: e.kind,
              waiting: null,
            });
            return;
          }
          job.patch({
            state: idleState,
            attempts,
            next_run_at: Date.now() + backoffDelay(attempts, this.config.backoff),
            waiting: e.kind === 'network' ? 'waiting for network' : `retrying after: ${e.message}`,
          });
          return;
        }
        job.patch({ state: 'failed', error: e.message, error_kind: e.kind, waiting: null });
        return;
      }
      if (e instanceof InputError || e instanceof ConfigError) {
        job.patch({ state: 'failed', error: e.message, error_kind: 'input', waiting: null });
        return;
      }
      const err = e as NodeJS.ErrnoException;
      const where = err.path ? ` (${err.path})` : '';
      const message =
        err.code === 'ENOSPC'
          ? `the disk is full${where}; free some space and retry`
          : `${err.code ? `${err.code}: ` : ''}${err.message ?? String(e)}${where}`;
      job.patch({ state: 'failed', error: message, error_kind: 'local', waiting: null });
    } catch (patchError) {
      if (!(patchError instanceof LeaseLostError)) throw patchError;
    }
  }
}
