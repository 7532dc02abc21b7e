import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workQueue } from '../../../electron/cli/serve/worker';
import type { RunOptions } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor } from '../../helpers/engine';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({});
});
afterAll(() => sb.stop());

const read = (v: number | (() => number)) => (typeof v === 'function' ? v() : v);

describe("serve's queue worker", () => {
  it('works with the settings of the moment, and stops gently unless told to cut', async () => {
    const host = engineFor(sb);
    let seen: RunOptions | null = null;
    const worker = workQueue(
      {
        run: (o) => {
          seen = o;
          return host.run(o);
        },
      },
      host.api,
      () => undefined,
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
    } finally {
      worker.stop('cut');
      await worker.stopped;
      await host.close();
    }
  });
});
