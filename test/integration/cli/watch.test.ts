import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DubdeskApi } from '../../../shared/contract/methods';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { waitFor } from '../../helpers/watch';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
});
afterAll(() => sb.stop());

/** Another face on the same data folder: observes what the CLI processes do without spawning more. */
function observer(home: string): { api: DubdeskApi; close(): Promise<void> } {
  const host = openDubdesk({
    home,
    face: 'cli',
    service: { baseUrl: sb.baseUrl, apiKey: sb.account.apiKey },
  });
  return { api: host.api, close: () => host.close() };
}

describe('dubdesk watch', () => {
  it(
    'adds, lists, edits, pauses and removes folders, while `dubdesk run` watches them until Ctrl+C',
    { timeout: 180_000 },
    async () => {
      const home = tempDir('dubdesk-home-');
      const eye = observer(home);
      const folders = async () => (await eye.api.listWatchFolders()).folders;
      const jobs = async () => (await eye.api.listJobs({ limit: 100 })).jobs;
      const env = { ...envFor(sb, home), DUBDESK_WATCH_SETTLE_MS: '300', DUBDESK_WATCH_RESCAN_MS: '1000' };
      const dir = tempDir('dubdesk-watch-');
      const out = tempDir('dubdesk-out-');

      const file = join(out, 'not-a-folder.mp4');
      await writeFile(file, 'x');
      const refused = await runCli(['watch', file, '--to', 'es'], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${file} is a file, not a folder`);
      const noLangs = await runCli(['watch', dir], env);
      expect(noLangs.code).toBe(2);
      expect(noLangs.stderr).toContain('--to');

      const added = await runCli(['watch', dir, '--to', 'es,fr', '--out', out, '--credit-limit', '500'], env);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stderr).toContain(`Watching #1 ${dir} → es, fr; results in ${out}`);
      expect(added.stderr).toContain('No Dubdesk is working the queue right now');
      expect((await folders())[0]).toMatchObject({ status: 'inactive', presetVersion: 1 });
      // Again with a flag: only that setting changes.
      const edited = await runCli(['watch', dir, '--studio'], env);
      expect(edited.code, edited.stderr).toBe(0);
      expect(edited.stderr).toContain('new preset version');
      expect((await folders())[0]).toMatchObject({
        presetVersion: 2,
        preset: expect.objectContaining({ studio: true, to: ['es', 'fr'], creditLimit: 500, outDir: out }),
      });
      expect((await runCli(['watch', dir, '--no-studio', '--credit-limit', 'none'], env)).code).toBe(0);
      expect((await folders())[0]).toMatchObject({
        presetVersion: 3,
        preset: expect.objectContaining({ studio: false, creditLimit: null }),
      });

      // A file already there before anyone watched is taken when `run` starts.
      await copyFile(audioMp3(1, 'cli-watch-a.mp3'), join(dir, 'a.mp3'));
      const run = startCli(['run', '--poll-interval', '0.05'], env);
      try {
        await waitFor(
          'a.mp3 dubbed',
          () => jobs(),
          (j) => j.length === 2 && j.every((x) => x.state === 'completed'),
        );
        expect((await folders())[0]).toMatchObject({
          status: 'watching',
          counts: expect.objectContaining({ done: 1 }),
        });

        // Paused from another process: the running watcher notices, takes nothing, then catches up on resume.
        expect((await runCli(['watch', '--pause', dir], env)).code).toBe(0);
        await waitFor(
          'paused',
          () => folders(),
          (f) => f[0]?.status === 'paused',
        );
        await copyFile(audioMp3(1.5, 'cli-watch-b.mp3'), join(dir, 'b.mp3'));
        const resumed = await runCli(['watch', '--resume', dir], env);
        expect(resumed.code, resumed.stderr).toBe(0);
        await waitFor(
          'b.mp3 dubbed',
          () => jobs(),
          (j) => j.length === 4 && j.every((x) => x.state === 'completed'),
        );
        const listing = await runCli(['watch', '--list'], env);
        expect(listing.stdout).toMatch(/watching .*0 waiting, 0 queued, 0 working, 2 done, 0 failed/);
        const files = await runCli(['watch', '--files', dir], env);
        expect(files.stdout).toMatch(/a\.mp3\s+1\s+done/);
        expect(files.stdout).toMatch(/b\.mp3\s+1\s+done/);
      } finally {
        run.child.kill('SIGINT');
      }
      const ended = await run.done;
      expect(ended.code).toBe(130);
      expect(ended.stderr).toContain(`Watching 1 folder: ${dir}`);
      expect((await folders())[0]?.status).toBe('inactive');

      expect((await runCli(['watch', '--approve', dir], env)).stderr).toContain('Nothing');
      const removed = await runCli(['watch', '--remove', dir], env);
      expect(removed.code, removed.stderr).toBe(0);
      expect(await folders()).toEqual([]);
      const gone = await runCli(['watch', '--pause', dir], env);
      expect(gone.code).toBe(2);
      expect(gone.stderr).toContain('is not a watched folder');
      const listed = await runCli(['watch', '--list', '--json'], env);
      expect(JSON.parse(listed.stdout)).toEqual({ folders: [] });
      expect((await runCli(['watch', '--list', '--remove', dir], env)).code).toBe(2);
      await eye.close();
    },
  );
});
