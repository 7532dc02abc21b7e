import { drainedSummary, type BatchSummary } from '../../../../shared/contract/batch-summary';
import { isTerminal, type JobView } from '../../../../shared/contract/jobs';
import type { DubdeskHandlers } from '../../../../shared/contract/methods';
import type { QueueTotals } from '../../../../shared/contract/queue';
import {
  actsOnComputer,
  NO_BATCH,
  watchDrain,
  WHEN_DONE_COUNTDOWN_SECONDS,
  type DrainWatch,
  type WhenDone,
  type WhenDoneState,
} from '../../../../shared/when-done';
import type { WhenDoneExecutor } from './executor';

export interface WhenDoneDeps {
  executor: WhenDoneExecutor;
  /** Every live job (the batch's summary is made of them). */
  jobs(): Promise<JobView[]>;
  totals(): Promise<QueueTotals>;
  /** The state changed: faces show it. */
  changed(state: WhenDoneState): void;
  /** A batch drained with `notify` chosen: faces tell the user, once. */
  notify(summary: BatchSummary): void;
  log(message: string): void;
  /** Hears each count of open jobs from now on; returns the function that stops it. */
  listen?(openJobs: (open: number) => void): () => void;
  /** How long sleep and shut down count down (tests shorten it). */
  countdownMs?: number;
  now?: () => Date;
}

/**
 * Acts once per batch when the queue drains: fed every count of open jobs in order (`openJobs`), it uses the
 * one drain rule (`watchDrain`), so a job that ends while others are open never counts as the end. Sleep
 * and shut down count down first, and give up when a job opens again meanwhile or the user cancels. The
 * choice lives as long as the engine (a restart forgets a "shut down when done": it never acts by surprise).
 */
export class WhenDoneService {
  private choice: WhenDone = { action: 'nothing' };
  private watch: DrainWatch = NO_BATCH;
  private countdown: { action: 'sleep' | 'shutdown'; endsAt: Date; timer: NodeJS.Timeout } | null = null;
  private last: WhenDoneState['last'] = null;
  /** The jobs as the batch began, by id: the summary compares them with how they end. */
  private before = new Map<number, JobView>();
  private snapshot: Promise<void> = Promise.resolve();
  /** The highest job id when the batch began: jobs above it were added during the batch. */
  private firstNewId = 0;

  private stopListening: (() => void) | null = null;

  constructor(private readonly deps: WhenDoneDeps) {}

  handlers(): Pick<DubdeskHandlers, 'whenDone' | 'setWhenDone' | 'cancelWhenDone'> {
    return {
      whenDone: () => this.state,
      setWhenDone: (choice) => this.set(choice),
      cancelWhenDone: () => this.cancel(),
    };
  }

  get state(): WhenDoneState {
    const c = this.countdown;
    return {
      choice: this.choice,
      countdown: c ? { action: c.action, endsAt: c.endsAt.toISOString() } : null,
      last: this.last,
    };
  }

  set(choice: WhenDone): WhenDoneState {
    this.choice = choice;
    this.listenWhileChosen();
    if (this.countdown && this.countdown.action !== choice.action) this.stopCountdown('canceled');
    this.deps.changed(this.state);
    return this.state;
  }

  /** One click on the countdown: the computer stays on, and the choice goes back to doing nothing. */
  cancel(): WhenDoneState {
    if (this.countdown) {
      this.stopCountdown('canceled');
      this.choice = { action: 'nothing' };
      this.listenWhileChosen();
    }
    this.deps.changed(this.state);
    return this.state;
  }

  /** The count of open jobs, each time it may have changed, in order. */
  openJobs(open: number): Promise<void> {
    const wasOpen = this.watch.batchOpen;
    const { watch, drained } = watchDrain(this.watch, open);
    this.watch = watch;
    if (open > 0 && this.countdown) {
      this.stopCountdown('a job opened again');
      this.deps.changed(this.state);
    }
    if (!wasOpen && watch.batchOpen) this.snapshot = this.remember();
    return drained ? this.snapshot.then(() => this.act()) : Promise.resolve();
  }

  dispose(): void {
    if (this.countdown) clearTimeout(this.countdown.timer);
    this.countdown = null;
    this.stopListening?.();
    this.stopListening = null;
  }

  /** The queue is followed only while something is to be done when it drains. */
  private listenWhileChosen(): void {
    if (!this.deps.listen) return;
    if (this.choice.action === 'nothing' && !this.countdown) {
      this.stopListening?.();
      this.stopListening = null;
      this.watch = NO_BATCH;
    } else if (!this.stopListening) {
      this.stopListening = this.deps.listen((open) => void this.openJobs(open));
      void this.deps.totals().then((t) => this.openJobs(t.left));
    }
  }

  private async remember(): Promise<void> {
    const jobs = await this.deps.jobs();
    this.before = new Map(jobs.map((j) => [j.id, j]));
    this.firstNewId = Math.max(0, ...jobs.map((j) => j.id)) + 1;
  }

  private async summary(): Promise<BatchSummary> {
    const [jobs, totals] = await Promise.all([this.deps.jobs(), this.deps.totals()]);
    const inBatch = jobs.filter((j) => {
      const was = this.before.get(j.id);
      return was ? !isTerminal(was.state) : j.id >= this.firstNewId;
    });
    return drainedSummary([...this.before.values()], inBatch, totals);
  }

  private async act(): Promise<void> {
    const choice = this.choice;
    if (choice.action === 'nothing') return;
    const summary = await this.summary();
    if (choice.action === 'notify') {
      this.deps.notify(summary);
      this.done('notify', 'notified');
    } else if (choice.action === 'command') {
      const r = await this.deps.executor.run(choice.command, `${JSON.stringify(summary)}\n`);
      this.done('command', r.failure ? `ran ${choice.command}: ${r.failure}` : `ran ${choice.command}`);
    } else if (actsOnComputer(choice)) this.startCountdown(choice.action);
  }

  private startCountdown(action: 'sleep' | 'shutdown'): void {
    const ms = this.deps.countdownMs ?? WHEN_DONE_COUNTDOWN_SECONDS * 1000;
    const now = this.deps.now?.() ?? new Date();
    const timer = setTimeout(() => void this.fire(action), ms);
    this.countdown = { action, endsAt: new Date(now.getTime() + ms), timer };
    this.deps.changed(this.state);
  }

  private stopCountdown(why: string): void {
    if (!this.countdown) return;
    clearTimeout(this.countdown.timer);
    this.last = {
      at: (this.deps.now?.() ?? new Date()).toISOString(),
      action: this.countdown.action,
      outcome: why,
    };
    this.countdown = null;
  }

  private async fire(action: 'sleep' | 'shutdown'): Promise<void> {
    this.countdown = null;
    // Never while a job is open: the last word is the queue's as it is now, not as it was a minute ago.
    const open = (await this.deps.totals()).left;
    if (open > 0 || this.watch.batchOpen) {
      this.done(action, 'not done: a job opened again');
      return;
    }
    // Once done, the choice goes back to nothing: a computer woken later does not sleep again by itself.
    this.choice = { action: 'nothing' };
    this.listenWhileChosen();
    try {
      await (action === 'sleep' ? this.deps.executor.sleep() : this.deps.executor.shutDown());
      this.done(action, action === 'sleep' ? 'slept' : 'shut down');
    } catch (e) {
      this.done(action, e instanceof Error ? e.message : String(e));
    }
  }

  private done(action: WhenDoneState['choice']['action'], outcome: string): void {
    this.last = { at: (this.deps.now?.() ?? new Date()).toISOString(), action, outcome };
    this.deps.log(`when done: ${outcome}`);
    this.deps.changed(this.state);
  }
}
