import { LeaseLostError, type JobRow } from '../db/jobs';
import type { Changes } from '../db/changes';
import { settingChanged } from '../db/changes';
import type { StepContext } from '../flows/context';
import { LeasedJob } from '../flows/context';
import { fetchOutputs } from '../flows/fetch-outputs';
import { submit } from '../flows/submit';
import { SeenDubs } from '../flows/seen-dubs';
import { StopAtStep, classify } from '../jobs/errors';
import { endNetworkWaits, type LifeEvent } from '../jobs/life';
import { isDiskFull } from '../files/disk-space';
import { ClockSteps } from './clock-steps';
import { CreditsRecheck } from './credits-recheck';
import { FailurePolicy } from './failure-policy';
import { Deliveries } from './deliveries';
import { againOnceThereIsRoom } from './room';
import { windowOpensAt } from './send-window';
import { PollLoop } from './poll-loop';
import { RestoreAsk } from './restore-ask';
import { IDLE_LOOK_MS, loopTurns } from './idle';
import { QueueLock } from './lock';
import { lookAfter, lookAround } from './looks';
import { audioPathStaging, recoverLeft } from './recover';
import { MAX_CONCURRENCY } from '../../../shared/contract/settings';
import { valueOf, type RunnerEnv, type RunnerHooks, type RunOptions, type RunOutcome } from './runner-types';

export type { QueuePause, RunnerEnv, RunnerHooks, RunOptions, RunOutcome } from './runner-types';
type Step = 'submit' | 'fetch';

/** `lookAfter` when nothing is asked of it. */
const NOTHING_AFTER: ReturnType<typeof lookAfter> = { nextDue: null, unfinished: null, inFlight: null };

/** Whether a commit is one the worker must look at now rather than when its sleep ends. */
const wakes = (c: Changes): boolean =>
  c.due ||
  settingChanged(c, 'queue.pause') ||
  settingChanged(c, 'app.settings') ||
  // A job canceled or paused here: a dub it leaves at the service is followed from now on (see `work`).
  [...c.jobs.values()].some((row) => row?.state === 'canceled' || row?.state === 'paused');

/**
 * The scheduler: holds the queue lock, claims due jobs under tokens, runs their step, turns every failure
 * into one life event (through `classify`), and polls the service for the dubs it tracks.
 */
export class Runner {
  /** Running steps; `offLink`: a submit step that sends no file, which takes no upload slot. */
  private readonly active = new Map<
    number,
    { step: Step; offLink: boolean; controller: AbortController; done: Promise<void> }
  >();
  private wakeUp: () => void = () => {};
  private running = false;
  private readonly seen = new SeenDubs();
  private pollSoon = false;
  private readonly restore: RestoreAsk;
  /** A failure no job caused and nothing can record (the data folder's disk full): the work stops on it. */
  private halted: { error: unknown } | null = null;
  private readonly halt = (error: unknown): void => {
    this.halted ??= { error };
    this.wakeUp();
  };
  private readonly failures: FailurePolicy;

  constructor(
    private readonly env: RunnerEnv,
    private readonly hooks: RunnerHooks,
  ) {
    this.failures = new FailurePolicy(env);
    this.restore = new RestoreAsk(
      env.backoff,
      (m) => hooks.connectivity(m),
      () => this.wakeUp(),
    );
  }

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

  /**
   * Works the queue holding its lock. When the disk under the data folder fills up (nothing can be
   * recorded), the steps stop where they are, the run waits for room saying where to free how much, and
   * takes up again from what was recorded.
   */
  async run(opts: RunOptions): Promise<RunOutcome> {
    const held: { lock: QueueLock | null } = { lock: null };
    const stop = AbortSignal.any([opts.signal, opts.drain].filter((x) => x !== undefined));
    try {
      return await againOnceThereIsRoom(this.env.home, this.hooks, stop, 'aborted', () => {
        if (!held.lock) {
          held.lock = QueueLock.acquire(this.env.lock, this.env.home);
          opts.onQueueHeld?.();
        }
        this.running = true;
        return this.work(opts, held.lock);
      });
    } finally {
      try {
        held.lock?.release();
      } catch {
        /* the disk is full: the lock goes with this process (its pid is gone) */
      }
      this.running = false;
    }
  }

  private async work(opts: RunOptions, lock: QueueLock): Promise<RunOutcome> {
    const { store } = this.env;
    const signal = opts.signal ?? new AbortController().signal;
    await recoverLeft(store, this.hooks, audioPathStaging(this.env.home));
    // What is made of finished dubs here (QC, SubRip, packages): in the process that holds the queue.
    const deliveries = new Deliveries({
      store,
      tools: () => this.env.mediaTools(),
      warn: (message) => this.hooks.warn?.(message),
      stagingDir: audioPathStaging(this.env.home),
    });
    // A delivery that ends while others run or are due changes nothing the loop looks at: it wakes only
    // once the deliveries are idle (a run until done may end then).
    deliveries.onIdle = () => this.wakeUp();
    // A package that failed is tried again by each run: what it failed on (a source unplugged, no ffmpeg, a
    // folder refused) may have been fixed since; it costs no credit.
    store.packages.retryFailed();
    // A new run asks the service again: a key or a balance may have been fixed since the last one.
    const pause = this.env.queuePause();
    if (pause && pause.reason !== 'user') this.env.setQueuePause(null);
    const draining = () => opts.drain?.aborted === true;
    const polls = new PollLoop({
      env: this.env,
      hooks: this.hooks,
      seen: this.seen,
      pollMs: () => valueOf(opts.pollIntervalMs),
      worked: (id) => this.active.has(id),
      halt: this.halt,
      ended: () => this.wakeUp(),
    });
    let followed = 0;
    const credits = new CreditsRecheck(this.env);
    const clock = new ClockSteps(store);
    // Nothing running, tracked or due at the last turn: the heartbeat is renewed seldom (see `idle.ts`).
    let wasIdle = false;
    const onAbort = () => this.wakeUp();
    // Asleep, it wakes when a job may be due sooner (added, retried, resumed; here or in another process),
    // or when the settings it works by moved (the pause, the concurrency).
    const stopListening = store.changes.subscribe((c) => {
      if (wakes(c)) this.wakeUp();
    });
    signal.addEventListener('abort', onAbort);
    opts.drain?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        loopTurns.runner++;
        this.env.lookForOthers();
        if (this.halted) throw this.takeHalted();
        if (signal.aborted) return 'aborted';
        if (draining() && this.active.size === 0 && !polls.busy) return 'aborted';
        const now = Date.now();
        if (clock.steppedBack(now) || this.pollSoon) {
          this.pollSoon = false;
          polls.soon();
          endNetworkWaits(store, this.env.service(), now);
        }
        if (!lock.renewIfDue(wasIdle)) return 'aborted'; // another process took the queue over: stop at once
        const service = this.env.service();
        const looked = store.read(lookAround, store, service, this.env.queuePause);
        const { paused, due } = looked;
        const tracking = looked.tracked + looked.followed + looked.canceledCreates;
        // A dub newly followed (its job canceled or paused): the service may have completed and charged it
        // already, so it is read now, not when the polls' pace, slowed while nothing moved, comes round.
        if (looked.followed > followed) polls.soon();
        followed = looked.followed;
        if (paused?.reason === 'auth' && opts.untilDone && this.active.size === 0 && !polls.busy)
          return 'auth';
        // The service's lists failed all the budget allows: a run that should finish starts nothing more.
        const givenUp = opts.untilDone && polls.budget.spent;
        if (givenUp && this.active.size === 0 && !polls.busy) return 'unreachable';
        const concurrency = valueOf(opts.concurrency);
        // One read tells whether anything is due at each step; a claim (a write transaction) only then.
        const isDue = (t: number | null) => t !== null && t <= now && !draining() && !givenUp;
        // After a restore, nothing is created before the service has said which dubs it made meanwhile.
        const held = this.restore.holds(store, () => this.env.clients(), signal, draining());
        // Outside the sending window nothing new starts; what was sent goes on (polls, downloads).
        const opensAt = windowOpensAt(this.env.sendWindow?.() ?? null, now);
        const sends = !paused && !held && opensAt === null;
        if (sends && isDue(due.submit)) this.claim('submit', concurrency, service, signal, opts.drain);
        if ((!paused || paused.reason === 'credits') && isDue(due.fetch))
          this.claim('fetch', concurrency, service, signal, opts.drain);

        // The service has no pause: dubs it started go on and are charged, so a pause (by the user or out of
        // credits) stops new work, never the polls that record their end. Only a rejected key stops them.
        const mayPoll = paused?.reason !== 'auth' && !draining() && !givenUp;
        if (tracking > 0 && mayPoll) polls.startIfDue(service, signal);

        credits.turn(paused, opts.untilDone);

        if (!draining()) deliveries.look();
        const idle = this.active.size === 0 && !polls.busy && !this.restore.busy && deliveries.idle;
        const withRoom = {
          submit: !held && opensAt === null && this.hasRoom('submit', concurrency),
          fetch: this.hasRoom('fetch', concurrency),
        };
        // Every slot busy and the run not at its end: nothing to read (a transaction of no statement).
        const asks = withRoom.submit || withRoom.fetch || (opts.untilDone && idle);
        const after = asks
          ? store.read(lookAfter, store, service, opts.untilDone && idle, paused, withRoom)
          : NOTHING_AFTER;
        if (opts.untilDone && idle) {
          if (after.unfinished === 0) return 'done';
          // Out of credits: nothing more can start; what was already running has finished. Paused: the dubs
          // the service was making have ended (and their charges are recorded).
          if (after.inFlight === 0) return paused?.reason === 'user' ? 'paused' : 'credits';
        }
        const { nextDue } = after;
        // Nothing to do and nothing to look at: sleep long; an add, a setting or a wake comes sooner.
        wasIdle = idle && tracking === 0 && (nextDue === null || nextDue - Date.now() > 1000);
        const candidates = [
          wasIdle ? (opts.idleLookMs ?? IDLE_LOOK_MS) : 1000,
          ...(nextDue !== null ? [nextDue - Date.now()] : []),
          ...(tracking ? [polls.dueAt - Date.now()] : []),
          ...(held && this.restore.nextAt !== null ? [this.restore.nextAt - Date.now()] : []),
          ...(opensAt !== null ? [opensAt - Date.now()] : []),
        ];
        await this.sleep(Math.max(10, Math.min(...candidates)));
      }
    } finally {
      await deliveries.stop();
      stopListening();
      signal.removeEventListener('abort', onAbort);
      opts.drain?.removeEventListener('abort', onAbort);
      for (const a of this.active.values()) a.controller.abort();
      await Promise.allSettled([...this.active.values()].map((a) => a.done));
      await polls.settled();
    }
  }

  /** What stopped the work no job can record (the data folder's disk full), once. */
  private takeHalted(): unknown {
    const { error } = this.halted ?? { error: null };
    this.halted = null;
    return error;
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

  /** Whether a step has a free slot: off-link submits (they send nothing) take none. */
  private hasRoom(step: Step, concurrency: number): boolean {
    return this.onLinkRunning(step) < concurrency;
  }

  private claim(
    step: Step,
    concurrency: number,
    service: string,
    runSignal: AbortSignal,
    drain: AbortSignal | undefined,
  ): void {
    const offLinkRunning = [...this.active.values()].filter((a) => a.offLink).length;
    for (const { row, token, offLink } of this.env.store.leases.claim(
      step,
      concurrency - this.onLinkRunning(step),
      service,
      this.stillWorked,
      Date.now(),
      // Steps that send nothing are API calls: as many at once as the highest concurrency setting.
      step === 'submit' ? MAX_CONCURRENCY - offLinkRunning : 0,
    ))
      this.start(step, row, token, runSignal, drain, offLink);
  }

  /** Steps that hold one of the step's slots: uploads and downloads, not the submits that send nothing. */
  private onLinkRunning(step: Step): number {
    return [...this.active.values()].filter((a) => a.step === step && !a.offLink).length;
  }

  private start(
    step: Step,
    row: JobRow,
    token: string,
    runSignal: AbortSignal,
    drain: AbortSignal | undefined,
    offLink: boolean,
  ): void {
    const { store } = this.env;
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, runSignal]);
    const stopping = () =>
      signal.aborted || drain?.aborted === true || this.env.queuePause()?.reason === 'user';
    const job = new LeasedJob(store, row, token, stopping, (j) => this.finishStep(j, token));
    const ctx: StepContext = {
      store,
      clients: this.env.clients(),
      signal,
      drain,
      progress: this.hooks.progress,
      seen: this.seen,
      stagingDir: audioPathStaging(this.env.home),
    };
    // A cancel or retry from another process takes the token away: notice it and stop the transfer.
    const watch = setInterval(() => {
      if (!store.leases.holds(row.id, token)) controller.abort();
    }, 1000);
    const work = step === 'submit' ? submit(ctx, job) : fetchOutputs(ctx, job);
    let released = false;
    const done = work
      .then(() => {
        this.failures.succeeded(row.id);
        this.hooks.connectivity(null);
        // The step finished; a pause asked meanwhile takes effect now, and the claim ends in the same
        // transaction (one commit where there were a read and a write), unless the step's last change
        // (`LeasedJob.end`) committed them already.
        if (!job.ended) store.tx(this.finishStep, job, token);
        released = true;
      })
      .catch((e: unknown) => this.failed(job, e, signal))
      .catch(this.halt)
      .finally(() => {
        clearInterval(watch);
        try {
          if (!released) store.leases.release(row.id, token);
        } catch (e) {
          this.halt(e); // the next run frees every lease this one left
        }
        this.active.delete(row.id);
        this.wakeUp();
      });
    this.active.set(row.id, { step, offLink, controller, done });
  }

  /** After a step that succeeded: a pause asked meanwhile takes effect, and the claim is given back. */
  private readonly finishStep = (job: LeasedJob, token: string): void => {
    if (this.env.store.leases.pauseRequested(job.row.id)) this.apply(job, { type: 'paused-at-step' });
    this.env.store.leases.release(job.row.id, token);
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
    // Not the job's failure: nothing can be recorded, its step resumes once there is room.
    if (isDiskFull(e, this.env.home)) return this.halt(e);
    const err = classify(e);
    const pauseAsked =
      (e instanceof StopAtStep && e.why === 'pause') || this.env.store.leases.pauseRequested(job.row.id);
    if (err.retry === 'interrupted' || signal.aborted) {
      return this.apply(job, { type: pauseAsked ? 'paused-at-step' : 'interrupted' });
    }
    if (err.error.code === 'offline') this.hooks.connectivity(err.error.message);
    if (err.retry === 'halt-auth') this.env.setQueuePause({ reason: 'auth', message: err.error.message });
    if (err.retry === 'halt-credits')
      this.env.setQueuePause({ reason: 'credits', message: 'out of credits' });
    this.apply(job, this.failures.next(job.row, err, pauseAsked));
  }
}
