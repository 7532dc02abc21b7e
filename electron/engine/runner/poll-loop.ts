import { isDiskFull } from '../files/disk-space';
import type { SeenDubs } from '../flows/seen-dubs';
import { pollOnce } from '../flows/track';
import { classify, type JobError } from '../jobs/errors';
import { PollBudget } from './poll-budget';
import { markTrackedOffline } from './recover';
import type { RunnerEnv, RunnerHooks } from './runner-types';

export interface PollLoopDeps {
  env: RunnerEnv;
  hooks: RunnerHooks;
  seen: SeenDubs;
  /** The poll interval the run was given (a setting may move it). */
  pollMs: () => number;
  /** Whether a job is being worked here (its dub is the worker's, not the poll's, to record). */
  worked: (id: number) => boolean;
  /** What no job can record stops the work (the data folder's disk full). */
  halt: (error: unknown) => void;
  /** Told when a poll ended: the worker looks again. */
  ended: () => void;
}

/**
 * The worker's polls of the service's lists: one at a time, soon again after one that saw a change, slower
 * (up to six times the interval, 30 s at most) while nothing moves, and after a failure when its budget says.
 */
export class PollLoop {
  private at = 0;
  private interval: number;
  private running: Promise<void> | null = null;
  /** Asked for while one was under way: it may have read the lists before what asked for it happened. */
  private again = false;
  readonly budget: PollBudget;

  constructor(private readonly deps: PollLoopDeps) {
    this.interval = deps.pollMs();
    this.budget = new PollBudget(deps.env);
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** When the next poll is due (0: now). */
  get dueAt(): number {
    return this.at;
  }

  /** A poll is wanted now, at the run's own interval again (once the one under way, if any, has ended). */
  soon(): void {
    this.at = 0;
    this.interval = this.deps.pollMs();
    if (this.running) this.again = true;
  }

  /** Starts a poll of `service`'s lists if none is under way and one is due. */
  startIfDue(service: string, signal: AbortSignal): void {
    if (this.running || Date.now() < this.at) return;
    const { env, seen, worked } = this.deps;
    this.running = pollOnce(env.store, env.clients(), service, signal, seen, worked)
      .then(({ changed, failure }) => {
        if (failure) throw failure;
        this.deps.hooks.connectivity(null);
        this.budget.succeeded();
        const base = this.deps.pollMs();
        const slowest = Math.max(base, Math.min(base * 6, 30_000));
        this.interval = changed.length ? base : Math.min(this.interval * 1.5, slowest);
        this.at = Date.now() + this.interval;
      })
      .catch((e: unknown) =>
        isDiskFull(e, env.home) ? this.deps.halt(e) : this.failed(classify(e), service),
      )
      .then((retryAt) => {
        if (typeof retryAt === 'number') this.at = retryAt;
      })
      .catch(this.deps.halt)
      .finally(() => {
        this.running = null;
        if (this.again) this.at = 0;
        this.again = false;
        this.deps.ended();
      });
  }

  /** Resolves once the poll under way, if any, has ended. */
  async settled(): Promise<void> {
    if (this.running) await this.running;
  }

  /**
   * A failed poll: offline marks the tracked jobs as waiting for the network, a list that keeps failing
   * says so on them, a rejected key halts the queue. Returns when to poll again.
   */
  private failed(err: JobError, service: string): number {
    const { env, hooks } = this.deps;
    if (err.retry === 'halt-auth') env.setQueuePause({ reason: 'auth', message: err.error.message });
    if (err.error.code === 'offline') {
      hooks.connectivity(err.error.message);
      markTrackedOffline(env.store, service);
    }
    const { retryAt, problem } = this.budget.failed(err);
    if (problem) markTrackedOffline(env.store, service, { code: 'retry', message: problem });
    return retryAt;
  }
}
