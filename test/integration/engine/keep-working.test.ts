import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepWorking, type RunOptions, type WorkerReport } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor } from '../../helpers/engine';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({});
});
afterAll(() => sb.stop());

const read = (v: number | (() => number)) => (typeof v === 'function' ? v() : v);

describe('keepWorking: the queue worked for as long as a face runs', () => {
  it('works with the settings of the moment, and stops gently unless told to cut', async () => {
    const host = engineFor(sb);
    let seen: RunOptions | null = null;
    const reports: WorkerReport[] = [];
    const worker = keepWorking(
      {
        api: host.api,
        wake: () => host.wake(),
        run: (o) => {
          seen = o;
          return host.run(o);
        },
      },
      { retryMs: 60_000, onReport: (r) => reports.push(r) },
    );
    try {
      await expect.poll(() => seen !== null).toBe(true);
      const opts = seen as unknown as RunOptions;
      const before = await host.api.getSettings();
      expect(read(opts.concurrency)).toBe(before.concurrency);
      await host.api.setSettings({ concurrency: before.concurrency + 3, pollIntervalSeconds: 7 });
      // The same run, no restart: the next claim and poll read the new values.
      await expect.poll(() => read(opts.concurrency)).toBe(before.concurrency + 3);
      expect(read(opts.pollIntervalMs)).toBe(7000);

      worker.stop();
      await worker.stopped;
      expect(opts.drain?.aborted).toBe(true);
      expect(opts.signal?.aborted).toBe(false);
      expect(reports).toEqual([
        { running: true, holdsQueue: false },
        { running: true, holdsQueue: true },
        { running: false, outcome: 'aborted', error: null, stopping: true },
      ]);
    } finally {
      worker.stop('cut');
      await worker.stopped;
      await host.close();
    }
  });

  it('held, lets the running steps finish and starts no run until let go ("quit after the current uploads")', async () => {
    const host = engineFor(sb);
    const runs: RunOptions[] = [];
    const worker = keepWorking(
      { api: host.api, wake: () => host.wake(), run: (o) => (runs.push(o), host.run(o)) },
      { retryMs: 60_000 },
    );
    try {
      await expect.poll(() => runs.length).toBe(1);
      worker.hold(true);
      expect(runs[0]?.drain?.aborted).toBe(true);
      expect(runs[0]?.signal?.aborted).toBe(false);
      // The drained run ends; a held worker starts no other, however often it is nudged.
      worker.nudge();
      await expect.poll(async () => (await host.api.totals()).running).toBe(false);
      expect(runs).toHaveLength(1);
      worker.hold(false);
      await expect.poll(() => runs.length).toBe(2);
      expect(runs[1]?.drain?.aborted).toBe(false);
    } finally {
      worker.stop('cut');
      await worker.stopped;
      await host.close();
    }
  });
});
