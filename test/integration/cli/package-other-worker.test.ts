/**
 * `dubdesk package` while another Dubdesk works the queue (`serve`, the app, a `run` left going): that one
 * makes the package. The command still waits for it and says what became of it, as it does when it makes
 * the package itself, instead of `dub`'s "N jobs are queued; another Dubdesk … dubs them" and exit 10.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { talkVideo } from '../../helpers/deliver-media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

describe('dubdesk package while another Dubdesk works the queue', () => {
  it('waits for that one to make it, names the package, and exits 0', async () => {
    const work = tempDir('dubdesk-package-elsewhere-');
    const source = join(work, 'réunion.mp4');
    copyFileSync(talkVideo(3), source);
    const env = envFor(sb, join(work, 'home'));
    const dubbed = await runCli(['dub', source, '--to', 'es', '--poll-interval', '0.1'], env, work);
    expect(dubbed.code, dubbed.stderr).toBe(0);

    const worker = startCli(['run', '--poll-interval', '0.1'], env, work);
    try {
      // The worker holds the queue once `status` says a run is working it.
      for (;;) {
        const status = await runCli(['status', '--json'], env);
        if ((JSON.parse(status.stdout) as { queue: { running: boolean } }).queue.running) break;
      }
      const packaged = await runCli(['package', source, '--format', 'mkv'], env, work);
      const pkg = join(work, 'réunion.multi.mkv');
      expect(packaged.stderr).not.toContain('dubs them');
      expect(packaged.stderr).toContain(`package: ${pkg} (es)`);
      expect(packaged.code, packaged.stderr).toBe(0);
      expect(existsSync(pkg)).toBe(true);
    } finally {
      worker.child.kill('SIGINT');
      await worker.done;
    }
  });
});
