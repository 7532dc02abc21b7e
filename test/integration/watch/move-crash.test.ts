/**
 * `after: move` moves a finished original to done/ or failed/ and records where it went. A kill -9 between
 * those steps must leave nothing the next start cannot tell: the file is found where it went, recorded
 * there once, neither queued nor charged again, and not shown as gone.
 */
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { madeOf } from '../../helpers/restored-home';
import { filesOf, folderOf, jobsOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Runs `dubdesk run` (it watches) until it says it is held at `point`, then kills it with SIGKILL. */
async function killedAt(point: string, env: NodeJS.ProcessEnv): Promise<void> {
  const cli = startCli(['run'], { ...env, DUBDESK_TEST_HOLD_AT: point });
  cleanup.push(async () => cli.child.kill('SIGKILL'));
  let said = '';
  cli.child.stderr?.on('data', (d: Buffer) => (said += d.toString()));
  let ended = false;
  void cli.done.then(() => (ended = true));
  await waitFor(
    `the watcher held at ${point}`,
    () => ({ said, ended }),
    (s) => s.ended || s.said.includes(`held at ${point}`),
    60_000,
  );
  expect(ended, `it ended before the point: ${said}`).toBe(false);
  cli.child.kill('SIGKILL');
  expect((await cli.done).signal).toBe('SIGKILL');
}

describe('kill -9 while a failed original moves to failed/', () => {
  it.each(['settle-linked', 'watch-moved'])(
    'killed at %s: the next start records it in failed/, once, not gone, not queued or charged again',
    async (point) => {
      const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, faults: { rateDubFailure: 1 } });
      cleanup.push(() => sb.stop());
      const work = tempDir('dubdesk-move-crash-');
      const home = join(work, 'home');
      const dir = join(work, 'dépôt à doubler');
      await mkdir(dir);
      const env = { ...envFor(sb, home), DUBDESK_WATCH_SETTLE_MS: '300', DUBDESK_WATCH_RESCAN_MS: '500' };
      const added = await runCli(
        ['watch', dir, '--to', 'es', '--after', 'move', '--out', join(work, 'out')],
        env,
      );
      expect(added.code, added.stderr).toBe(0);
      const name = 'Clip née.mp3';
      await copyFile(audioMp3(1, 'move-crash.mp3'), join(dir, name));

      await killedAt(point, env);
      const failed = join(dir, 'failed');

      const host = watchEngine(sb, home);
      cleanup.push(() => host.close());
      const run = running(host);
      cleanup.push(() => run.stop());
      const folderId = (await host.api.listWatchFolders()).folders[0]?.id ?? 0;
      // The restarted watcher has looked at the folder: the file is either recorded somewhere or gone.
      await waitFor(
        'the restart to settle the file',
        () => filesOf(host.api, folderId),
        (f) => f[0]?.status === 'failed' && (f[0].movedTo !== null || f[0].gone),
      );
      const a = (await folderOf(host.api, folderId)).lastScanAt;
      await waitFor(
        'a scan after it',
        () => folderOf(host.api, folderId),
        (f) => f.lastScanAt !== a,
      );

      const files = await filesOf(host.api, folderId);
      expect(files.map((f) => ({ status: f.status, movedTo: f.movedTo, gone: f.gone }))).toEqual([
        { status: 'failed', movedTo: join(failed, name), gone: false },
      ]);
      expect(await readdir(failed)).toEqual([name]);
      expect((await readdir(dir)).sort()).toEqual(['failed']);
      expect((await jobsOf(host.api, folderId)).map((j) => j.state)).toEqual(['failed']);
      expect(madeOf(sb, [name]).dubs).toHaveLength(1);
      // Where it went is where the user finds it: "Dub again" works from there.
      const again = await host.api.reprocessWatchFile({ id: folderId, path: join(failed, name) });
      expect(again.jobIds).toHaveLength(1);
    },
  );
});
