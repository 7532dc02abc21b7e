/**
 * What `dubdesk retry` says after it queued jobs again: who will work them. With `dubdesk serve` (or the
 * app) working the queue in another process, "Run `dubdesk run`" sends the user to start a second worker
 * that only waits for the first.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { workQueue } from '../../../electron/web/worker';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

describe('dubdesk retry, once the jobs are queued again', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 60 });
  });
  afterEach(() => sb.stop());

  async function canceledJob(): Promise<{ home: string; env: NodeJS.ProcessEnv }> {
    const work = tempDir('dubdesk-retry-hint-');
    const home = join(work, 'home');
    const env = envFor(sb, home);
    const added = await runCli(
      ['add', videoMp4(1, 'hint.mp4'), '--to', 'es', '--out', join(work, 'out')],
      env,
    );
    expect(added.code, added.stderr).toBe(0);
    expect((await runCli(['cancel', '1'], env)).code).toBe(0);
    return { home, env };
  }

  it('with nobody working the queue: says to run `dubdesk run`', async () => {
    const { env } = await canceledJob();
    const r = await runCli(['retry', '1'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Run `dubdesk run` to work them.');
  });

  it('with `dubdesk serve` working it in another process: says they start there, not to run another', async () => {
    const { home, env } = await canceledJob();
    const serve = openDubdesk({
      home,
      face: 'web',
      service: { baseUrl: sb.baseUrl, apiKey: sb.account.apiKey },
    });
    const worker = workQueue(serve, () => undefined);
    try {
      await vi.waitFor(async () => expect((await serve.api.totals()).running).toBe(true), {
        timeout: 20_000,
      });
      const r = await runCli(['retry', '1'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('Run `dubdesk run`');
      expect(r.stderr).toMatch(/working the queue: they start there/);
    } finally {
      worker.stop();
      await worker.stopped;
      await serve.close();
    }
  });
});
