/**
 * `after: move` moves a finished original to done/ or failed/ and records where it went. A kill -9 between
 * those steps must leave nothing the next start cannot tell: the file is found where it went, recorded
 * there once, neither queued nor charged again, and not shown as gone.
 */
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pauseAt } from '../../../electron/engine/files/hold-point';
import { startSandbox } from '../../../electron/sandbox/server';
import { envFor, killedAtHold, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { madeOf } from '../../helpers/restored-home';
import { filesOf, folderOf, jobsOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const name = 'Clip née.mp3';

/** A watched folder whose one file's dub fails, its `dubdesk run` killed at `point` of the original's move. */
async function killedMidMove(point: string) {
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
  await copyFile(audioMp3(1, 'move-crash.mp3'), join(dir, name));
  await killedAtHold(point, ['run'], env, 60_000);
  return { sb, home, dir, failed: join(dir, 'failed') };
}

/** The restarted engine, watching and working its queue, and its one folder. */
async function restarted(crash: Awaited<ReturnType<typeof killedMidMove>>) {
  const host = watchEngine(crash.sb, crash.home);
  cleanup.push(() => host.close());
  const run = running(host);
  cleanup.push(() => run.stop());
  const folderId = (await host.api.listWatchFolders()).folders[0]?.id ?? 0;
  return { api: host.api, folderId };
}

/** The file recorded in failed/, once, not gone; its one job failed, one dub made; "Dub again" works. */
async function expectRecordedInFailed(
  crash: Awaited<ReturnType<typeof killedMidMove>>,
  { api, folderId }: Awaited<ReturnType<typeof restarted>>,
) {
  const files = await filesOf(api, folderId);
  expect(files.map((f) => ({ status: f.status, movedTo: f.movedTo, gone: f.gone }))).toEqual([
    { status: 'failed', movedTo: join(crash.failed, name), gone: false },
  ]);
  expect(await readdir(crash.failed)).toEqual([name]);
  expect((await readdir(crash.dir)).sort()).toEqual(['failed']);
  expect((await jobsOf(api, folderId)).map((j) => j.state)).toEqual(['failed']);
  expect(madeOf(crash.sb, [name]).dubs).toHaveLength(1);
  // Where it went is where the user finds it: "Dub again" works from there.
  const again = await api.reprocessWatchFile({ id: folderId, path: join(crash.failed, name) });
  expect(again.jobIds).toHaveLength(1);
}

describe('kill -9 while a failed original moves to failed/', () => {
  it.each(['settle-linked', 'watch-moved'])(
    'killed at %s: the next start records it in failed/, once, not gone, not queued or charged again',
    async (point) => {
      const crash = await killedMidMove(point);
      const engine = await restarted(crash);
      // The restarted watcher has looked at the folder: the file is either recorded somewhere or gone.
      await waitFor(
        'the restart to settle the file',
        () => filesOf(engine.api, engine.folderId),
        (f) => f[0]?.status === 'failed' && (f[0].movedTo !== null || f[0].gone),
      );
      const a = (await folderOf(engine.api, engine.folderId)).lastScanAt;
      await waitFor(
        'a scan after it',
        () => folderOf(engine.api, engine.folderId),
        (f) => f.lastScanAt !== a,
      );
      await expectRecordedInFailed(crash, engine);
    },
  );

  it('a scan that marks the file gone between the move finished and its record: recorded in failed/ all the same', async () => {
    // Killed linked into failed/ and still in place: the restart reads the row (not gone, the file is there),
    // finishes the move (unlinks it here), and its record waits until a scan has marked the row gone.
    const crash = await killedMidMove('settle-linked');
    let sawGone = false;
    let started: (e: Awaited<ReturnType<typeof restarted>>) => void = () => {};
    const restart = new Promise<Awaited<ReturnType<typeof restarted>>>((resolve) => (started = resolve));
    const undo = pauseAt('watch-moved', async () => {
      const { api, folderId } = await restart;
      await waitFor(
        'the scan to mark the moved original gone',
        () => filesOf(api, folderId),
        (f) => f[0]?.gone === true,
      );
      sawGone = true;
    });
    cleanup.push(async () => undo());
    const engine = await restarted(crash);
    started(engine);
    await waitFor(
      'the file recorded where it went',
      () => filesOf(engine.api, engine.folderId),
      (f) => Boolean(f[0]?.movedTo),
      15_000,
    );
    expect(sawGone, 'the record waited for the scan').toBe(true);
    await expectRecordedInFailed(crash, engine);
  });
});
