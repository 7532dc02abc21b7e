import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { fakeService } from '../../helpers/fake-service';
import { json } from '../../helpers/hostile';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 30 });
});
afterAll(() => sb.stop());

describe('what a command says it did', () => {
  it('a dub paid for but never downloaded fails after 8 tries, and its charge is in "Credits charged"', async () => {
    const service = await fakeService({
      measuredDuration: 3.2,
      download: (_req, res) => json(res, 500, { error: 'Internal server error' }),
    });
    try {
      const work = tempDir('dubdesk-charged-');
      const env = {
        ...process.env,
        DUBDESK_HOME: join(work, 'home'),
        DUBDESK_BASE_URL: service.url,
        DUBDESK_API_KEY: 'k',
        DUBDESK_RETRY_BASE_MS: '20',
      };
      const r = await runCli(
        ['dub', videoMp4(2, 'paid.mp4'), '--to', 'es', '--out', 'out', '--poll-interval', '0.1'],
        env,
        work,
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('This batch: 0 completed, 1 failed. Credits charged: 4 (estimated 2).\n');
      expect(r.stderr).toContain(
        '  ✗ #1 paid.mp4 → es: gave up after 8 attempts: Internal server error (HTTP 500',
      );
      expect(service.downloads()).toHaveLength(8);
      expect(await readdir(join(work, 'out'))).toEqual([]);
    } finally {
      await service.close();
    }
  });

  it('a run stopped at once reports that it did nothing, and the queue totals as such (exit 130)', async () => {
    const work = tempDir('dubdesk-stopped-');
    const env = envFor(sb, join(work, 'home'));
    const files = [videoMp4(2, 'stop-a.mp4'), videoMp4(3, 'stop-b.mp4')];
    expect((await runCli(['add', ...files, '--to', 'es', '--out', join(work, 'out')], env)).code).toBe(0);
    const { child, done } = startCli(['run', '--poll-interval', '0.2'], env);
    // Once the run is under way (the first job moved), Ctrl+C.
    child.stderr?.once('data', () => child.kill('SIGINT'));
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('Finishing the current step');
    expect(r.stderr).toContain('This run: 0 completed, 0 failed, 2 still open. Credits charged: 0.\n');
    expect(r.stderr).toContain('Queue (all jobs): 2 jobs: 0 completed, 0 failed, 2 still open.\n');
  });
});
