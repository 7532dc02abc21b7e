/**
 * A source whose reads hang (a network share asleep). The reads of a file
 * going out run in libuv's thread pool: a read that never returns holds one pool thread, never the engine.
 * The hang here is real: the read of the stuck file is a blocking read of a FIFO nobody writes, made in the
 * pool by Node's own `fs.read`.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { loopTurns } from '../../../electron/engine/runner/idle';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { allJobs, whenJob } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { hangingReads } from '../../helpers/hanging-reads';
import { videoMp4 } from '../../helpers/media';

function copyOf(name: string): string {
  const path = join(tempDir(), name);
  copyFileSync(videoMp4(2), path);
  return path;
}

describe('a source whose reads hang', () => {
  let sb: Sandbox;
  const reads = hangingReads();
  beforeAll(async () => {
    sb = await startSandbox({ pipelineSeconds: 0.2, balance: 10_000 });
  });
  afterAll(async () => {
    reads.release();
    await sb.stop();
  });

  it('fails as stalled naming the file, while the queue, the engine and other jobs keep moving', async () => {
    const host = openDubdesk({
      home: tempDir(),
      face: 'cli',
      service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey },
      backoff: { baseMs: 50, capMs: 400 },
      limits: { idleMs: 1_500 },
      sourceReads: reads,
      checkOutputs: true,
    });
    const stuck = copyOf('stuck-on-the-share.mp4');
    const stalled = whenJob(
      host.api,
      (j) => j.waiting?.message.includes(`reading ${stuck} stalled`) === true,
    );
    const stop = new AbortController();
    const running = host.run({ untilDone: false, concurrency: 2, pollIntervalMs: 50, signal: stop.signal });
    try {
      await host.api.add({ inputs: [stuck], to: ['es'], api: 'v2', outDir: tempDir() });
      const first = await whenJob(host.api, (j) => j.state === 'uploading');
      expect(first.sourceName).toBe('stuck-on-the-share.mp4');
      // While its read hangs: other files are added, uploaded and dubbed to the end.
      const others = [copyOf('a.mp4'), copyOf('b.mp4'), copyOf('c.mp4')];
      await host.api.add({ inputs: others, to: ['fr'], api: 'v2', outDir: tempDir() });
      const done = await stalled;
      expect(done.waiting).toMatchObject({ code: 'source' });
      await expect
        .poll(async () => (await allJobs(host.api)).filter((j) => j.state === 'completed').length, {
          timeout: 30_000,
        })
        .toBe(3);
      expect(reads.blocked()).toBeGreaterThan(0);
      const again = (await allJobs(host.api)).find((j) => j.sourceName === 'stuck-on-the-share.mp4');
      expect(again?.state).not.toBe('completed');
    } finally {
      stop.abort();
      await running;
      await host.close();
    }
  });
  it('while every worker is busy, the jobs due behind them do not spin the runner', async () => {
    const host = openDubdesk({
      home: tempDir(),
      face: 'cli',
      service: { baseUrl: sb.baseUrl, apiKey: sb.account.apiKey },
      limits: { idleMs: 2_000 },
      sourceReads: reads,
    });
    const stuck = copyOf('stuck-while-others-wait.mp4');
    const stop = new AbortController();
    const running = host.run({
      untilDone: false,
      concurrency: 1,
      pollIntervalMs: 60_000,
      signal: stop.signal,
    });
    try {
      await host.api.add({ inputs: [stuck], to: ['es'], api: 'v2', outDir: tempDir() });
      await whenJob(host.api, (j) => j.state === 'uploading');
      const stalled = whenJob(
        host.api,
        (j) => j.waiting?.message.includes(`reading ${stuck} stalled`) === true,
      );
      // Due, with the one worker busy for the 2 s the stuck read takes to be given up on.
      await host.api.add({ inputs: [copyOf('due-behind.mp4')], to: ['es'], api: 'v2', outDir: tempDir() });
      const before = loopTurns.runner;
      await stalled;
      // A turn a second (heartbeat, poll time) and one per wake-up; a loop that looks again every 10 ms
      // while nothing can be claimed turns ~200 times here.
      expect(loopTurns.runner - before).toBeLessThan(20);
    } finally {
      stop.abort();
      await running;
      await host.close();
    }
  });
});
