import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchSummarySchema, type BatchSummary } from '../../shared/contract/batch-summary';
import type { JobState, JobView } from '../../shared/contract/jobs';
import { emptyCounts, type QueueTotals } from '../../shared/contract/queue';
import { NO_BATCH, watchDrain, type WhenDoneState } from '../../shared/when-done';
import {
  powerCommand,
  systemExecutor,
  type WhenDoneExecutor,
} from '../../electron/engine/app/when-done/executor';
import { WhenDoneService } from '../../electron/engine/app/when-done/when-done-service';
import { tempDir } from '../helpers/temp-dir';
import { jobView } from '../helpers/job-view';

/** Feeds the drain rule a run of open-job counts; returns after which counts it said "drained". */
function drainsOf(counts: number[]): number[] {
  let watch = NO_BATCH;
  const at: number[] = [];
  counts.forEach((n, i) => {
    const r = watchDrain(watch, n);
    watch = r.watch;
    if (r.drained) at.push(i);
  });
  return at;
}

/** An executor that only writes down what it was asked: nothing here may sleep the test machine. */
function recorder(): WhenDoneExecutor & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    sleep: async () => void calls.push('sleep'),
    shutDown: async () => void calls.push('shutdown'),
    run: async (command, input) => {
      calls.push(`run ${command} ${input.length > 0 ? 'with input' : ''}`);
      return { exitCode: 0, failure: null };
    },
  };
}

/** A queue of three jobs whose states the test moves; the service reads it as the engine would. */
function queueOf(states: JobState[]) {
  const jobs = states.map((state, i) => jobView(`clip ${i + 1}.mp4`, { id: i + 1, state }));
  const totals = (): QueueTotals => {
    const counts = emptyCounts();
    for (const j of jobs) counts[j.state]++;
    const left = jobs.filter((j) => !['completed', 'failed', 'canceled'].includes(j.state)).length;
    return {
      counts,
      total: jobs.length,
      history: 0,
      left,
      bytesPerSecond: null,
      etaSeconds: null,
      creditsCommitted: 0,
      creditsCharged: 0,
      balance: null,
      creditsShort: null,
      offline: null,
      storageFull: null,
      packageDiskFull: null,
      paused: null,
      running: true,
      resumedAfterCrash: 0,
    };
  };
  const set = (i: number, state: JobState) => {
    const job = jobs[i];
    if (job) jobs[i] = { ...job, state };
  };
  return { jobs, totals, set };
}

function serviceFor(queue: ReturnType<typeof queueOf>, executor: WhenDoneExecutor) {
  const states: WhenDoneState[] = [];
  const notices: BatchSummary[] = [];
  const service = new WhenDoneService({
    executor,
    jobs: async () => queue.jobs.map((j) => ({ ...j })),
    totals: async () => queue.totals(),
    changed: (s) => states.push(s),
    notify: (s) => notices.push(s),
    log: () => {},
  });
  const feed = () => service.openJobs(queue.totals().left);
  return { service, states, notices, feed };
}

describe('when the batch is done', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the drain rule says "done" once per batch, never while a job is open, never for an empty queue', () => {
    expect(drainsOf([0, 0, 0])).toEqual([]);
    expect(drainsOf([3, 2, 1, 0, 0])).toEqual([3]);
    expect(drainsOf([2, 0, 1, 0])).toEqual([1, 3]);
    // A paused job is open: the batch is not over while it waits.
    expect(drainsOf([3, 1, 1, 1])).toEqual([]);
  });

  it('does not shut down when the first job of three ends, and shuts down once after the countdown when all have', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const queue = queueOf(['queued', 'queued', 'queued']);
    const executor = recorder();
    const { service, states, feed } = serviceFor(queue, executor);
    service.set({ action: 'shutdown' });
    await feed();
    queue.set(0, 'completed');
    await feed();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(executor.calls).toEqual([]);
    expect(service.state.countdown).toBeNull();
    queue.set(1, 'failed');
    queue.set(2, 'completed');
    await feed();
    expect(service.state.countdown?.action).toBe('shutdown');
    await vi.advanceTimersByTimeAsync(59_000);
    expect(executor.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(executor.calls).toEqual(['shutdown']);
    // Done once: the choice went back to nothing, and another drain does nothing.
    expect(service.state.choice).toEqual({ action: 'nothing' });
    await feed();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(executor.calls).toEqual(['shutdown']);
    expect(states.some((s) => s.countdown !== null)).toBe(true);
  });

  it('one click cancels the countdown, and a job that opens meanwhile stops it too', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const queue = queueOf(['queued']);
    const executor = recorder();
    const { service, feed } = serviceFor(queue, executor);
    service.set({ action: 'sleep' });
    await feed();
    queue.set(0, 'completed');
    await feed();
    expect(service.state.countdown?.action).toBe('sleep');
    service.cancel();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(executor.calls).toEqual([]);
    expect(service.state.last?.outcome).toBe('canceled');

    service.set({ action: 'sleep' });
    queue.set(0, 'queued');
    await feed();
    queue.set(0, 'completed');
    await feed();
    expect(service.state.countdown).not.toBeNull();
    queue.set(0, 'queued'); // a watched folder found a new file
    await feed();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(executor.calls).toEqual([]);
  });

  it('does not act when the queue has an open job at the last moment, even one the feed has not told of yet', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const queue = queueOf(['queued']);
    const executor = recorder();
    const { service, feed } = serviceFor(queue, executor);
    service.set({ action: 'shutdown' });
    await feed();
    queue.set(0, 'completed');
    await feed();
    queue.set(0, 'queued'); // another process queued it; no count fed yet
    await vi.advanceTimersByTimeAsync(60_000);
    expect(executor.calls).toEqual([]);
    expect(service.state.last?.outcome).toMatch(/job opened again/);
  });

  it('notifies once per batch, with the batch summary (the shape of run --json)', async () => {
    const queue = queueOf(['queued', 'queued']);
    const { service, notices, feed } = serviceFor(queue, recorder());
    service.set({ action: 'notify' });
    await feed();
    queue.set(0, 'completed');
    await feed();
    expect(notices).toEqual([]);
    queue.set(1, 'failed');
    await feed();
    expect(notices).toHaveLength(1);
    const summary = BatchSummarySchema.parse(notices[0]);
    expect(summary.tally).toMatchObject({ completed: 1, failed: 1, open: 0 });
    expect(summary.exitCode).toBe(1);
  });

  it("runs the user's command through the shell with the summary on its standard input", async () => {
    const dir = tempDir('dubdesk-when-done-');
    const queue = queueOf(['queued']);
    const { service, feed } = serviceFor(queue, systemExecutor());
    const file = join(dir, 'sum mary é.json');
    service.set({ action: 'command', command: `cat > '${file}'` });
    await feed();
    queue.set(0, 'completed');
    await feed();
    const summary = BatchSummarySchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(summary.jobs.map((j: JobView) => j.state)).toEqual(['completed']);
    expect(service.state.last?.outcome).toBe(`ran cat > '${file}'`);

    service.set({ action: 'command', command: 'exit 3' });
    queue.set(0, 'queued');
    await feed();
    queue.set(0, 'completed');
    await feed();
    expect(service.state.last?.outcome).toBe('ran exit 3: exit code 3');
  });

  it("uses each system's own sleep and shut-down commands", () => {
    expect(powerCommand('sleep', 'linux')).toEqual(['systemctl', ['suspend']]);
    expect(powerCommand('shutdown', 'linux')).toEqual(['systemctl', ['poweroff']]);
    expect(powerCommand('sleep', 'darwin')).toEqual(['pmset', ['sleepnow']]);
    expect(powerCommand('shutdown', 'win32')).toEqual(['shutdown.exe', ['/s', '/t', '0']]);
  });
});
