/**
 * `dubdesk serve` started while a `dubdesk run` works the queue says it is not working it; when that run
 * ends and serve takes the queue, its terminal must say so: a last line "Not working the queue" stayed
 * there while serve did all the work.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { workQueue } from '../../../electron/web/worker';
import { envFor, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

describe("serve's worker, when the process that held the queue stops", () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await startSandbox({ ffmpeg: false });
  });
  afterEach(() => sb.stop());

  it('says it works the queue now, after it said it did not', async () => {
    const home = join(tempDir('dubdesk-takeover-'), 'home');
    const { child, done } = startCli(['run', '--poll-interval', '0.2'], envFor(sb, home));
    const serve = openDubdesk({
      home,
      face: 'web',
      service: { baseUrl: sb.baseUrl, apiKey: sb.account.apiKey },
    });
    const said: string[] = [];
    try {
      await vi.waitFor(async () => expect((await serve.api.totals()).running).toBe(true), {
        timeout: 30_000,
      });
      const worker = workQueue(serve, (line) => said.push(line));
      try {
        await vi.waitFor(() => expect(said.at(-1)).toMatch(/^Not working the queue: /), { timeout: 30_000 });
        child.kill('SIGINT');
        await done;
        worker.nudge();
        await vi.waitFor(() => expect(said.at(-1)).toBe('Working the queue now.'), { timeout: 30_000 });
        expect((await serve.api.totals()).running).toBe(true);
      } finally {
        worker.stop();
        await worker.stopped;
      }
    } finally {
      child.kill('SIGINT');
      await serve.close();
    }
  });
});
