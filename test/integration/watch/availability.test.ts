import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import {
  addFolder,
  duplicatesOf,
  filesOf,
  folderOf,
  jobsOf,
  running,
  waitFor,
  watchEngine,
  writeSlowly,
} from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function sandbox(): Promise<Sandbox> {
  const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
  cleanup.push(() => sb.stop());
  return sb;
}

/** A distinct 1-second MP3 per name (the same tone would be one content: a duplicate). */
const clip = (i: number) => audioMp3(1 + i / 100, `avail-${i}.mp3`);

describe('a watched folder that goes away', () => {
  it.each([
    ['file-system events', 'never'],
    ['polling', 'always'],
  ] as const)(
    'shows unavailable, loses nothing, and takes what arrived meanwhile when it is back (%s)',
    async (_how, polling) => {
      const sb = await sandbox();
      const host = watchEngine(sb);
      cleanup.push(() => host.close());
      const { api } = host;
      await api.pauseQueue();
      const dir = tempDir('dubdesk-watch-');
      const folder = await addFolder(api, dir, { polling });
      const run = running(host);
      cleanup.push(() => run.stop());
      const watching = await waitFor(
        'watching',
        () => folderOf(api, folder.id),
        (f) => f.status === 'watching',
      );
      expect(watching.polled).toBe(polling === 'always');
      await copyFile(clip(0), join(dir, 'before.mp3'));
      await waitFor(
        'before.mp3 queued',
        () => jobsOf(api, folder.id),
        (j) => j.length === 2,
      );

      // Unplugged: the folder is gone.
      const away = `${dir}.away`;
      await rename(dir, away);
      const gone = await waitFor(
        'unavailable',
        () => folderOf(api, folder.id),
        (f) => f.status === 'unavailable',
      );
      expect(gone.statusMessage).toMatch(/is not there/);
      // Files added on the other side while it was away (another machine, the drive elsewhere).
      await copyFile(clip(1), join(away, 'meanwhile.mp3'));
      await rename(away, dir);
      await waitFor(
        'watching again',
        () => folderOf(api, folder.id),
        (f) => f.status === 'watching',
      );
      await waitFor(
        'meanwhile.mp3 queued',
        () => jobsOf(api, folder.id),
        (j) => j.length === 4,
      );

      // Deleted outright and created again: a file dropped at once is taken too.
      await rm(dir, { recursive: true });
      await waitFor(
        'unavailable again',
        () => folderOf(api, folder.id),
        (f) => f.status === 'unavailable',
      );
      await mkdir(dir);
      await copyFile(clip(2), join(dir, 'after.mp3'));
      await waitFor(
        'after.mp3 queued',
        () => jobsOf(api, folder.id),
        (j) => j.length === 6,
      );
      expect((await folderOf(api, folder.id)).status).toBe('watching');
      const files = await filesOf(api, folder.id);
      expect(files.map((f) => [f.name, f.gone]).sort()).toEqual([
        ['after.mp3', false],
        ['before.mp3', true], // the folder came back without it: its record and jobs stay
        ['meanwhile.mp3', true],
      ]);
      expect(duplicatesOf(await jobsOf(api, folder.id))).toEqual([]);
    },
  );
});

describe('a restart', () => {
  it('takes every file once, with files still arriving before, during and after it', async () => {
    const sb = await sandbox();
    const home = tempDir('dubdesk-home-');
    const dir = tempDir('dubdesk-watch-');
    // The slow writer pauses 150 ms between chunks: a settle time ten times that never mistakes a pause for
    // the end, however busy the machine.
    const timing = { settleMs: 1500 };
    const first = watchEngine(sb, home, timing);
    await first.api.pauseQueue();
    const folder = await addFolder(first.api, dir);
    const runA = running(first);
    await waitFor(
      'watching',
      () => folderOf(first.api, folder.id),
      (f) => f.status === 'watching',
    );

    const names: string[] = [];
    let n = 0;
    const drop = async (count: number) => {
      for (let i = 0; i < count; i++, n++) {
        const name = `clip-${String(n).padStart(2, '0')}.mp3`;
        await copyFile(clip(n), join(dir, name));
        names.push(name);
        await new Promise((r) => setTimeout(r, 60));
      }
    };
    await drop(6);
    // A file still being written when the first engine stops, finished after the second one started.
    const slow = writeSlowly(audioMp3(2.5, 'restart-slow.mp3'), join(dir, 'slow.mp3'), 10, 150);
    await drop(3);
    await runA.stop();
    await first.close();
    await drop(6); // nobody watching
    const second = watchEngine(sb, home, timing);
    cleanup.push(() => second.close());
    const runB = running(second);
    cleanup.push(() => runB.stop());
    await drop(6);
    await slow;
    names.push('slow.mp3');

    const jobs = await waitFor(
      'every file queued in both languages',
      () => jobsOf(second.api, folder.id),
      (j) => j.length >= names.length * 2,
    ).catch(async (e: unknown) => {
      const files = await filesOf(second.api, folder.id);
      const seen = files.map(
        (f) => `${f.name} v${f.version} ${f.status}${f.problem ? ` (${f.problem.message})` : ''}`,
      );
      throw new Error(`${(e as Error).message.slice(0, 200)}\nfiles: ${seen.join('; ')}`);
    });
    // A little longer: nothing more may come.
    const scanned = (await folderOf(second.api, folder.id)).lastScanAt;
    await waitFor(
      'a full scan',
      () => folderOf(second.api, folder.id),
      (f) => f.lastScanAt !== scanned,
    );
    const all = await jobsOf(second.api, folder.id);
    expect(all.length).toBe(jobs.length);
    expect(duplicatesOf(all)).toEqual([]);
    expect(new Set(all.map((j) => j.sourceName))).toEqual(new Set(names));
    const slowJobs = all.filter((j) => j.sourceName === 'slow.mp3');
    expect(slowJobs.map((j) => j.state)).toEqual(['queued', 'queued']);
    expect(slowJobs[0]?.durationSeconds).toBeGreaterThan(2.4);
  });
});

describe('a restart mid-settle', () => {
  it('looks at once at a file the previous engine was still settling, whenever it planned to', async () => {
    const sb = await sandbox();
    const home = tempDir('dubdesk-home-');
    const dir = tempDir('dubdesk-watch-');
    // The first engine would look again only in a minute; the second one settles in 0.4 s.
    const first = watchEngine(sb, home, { settleMs: 60_000 });
    await first.api.pauseQueue();
    const folder = await addFolder(first.api, dir);
    const runA = running(first);
    await waitFor(
      'watching',
      () => folderOf(first.api, folder.id),
      (f) => f.status === 'watching',
    );
    await copyFile(clip(50), join(dir, 'pending.mp3'));
    await waitFor(
      'pending.mp3 seen',
      () => filesOf(first.api, folder.id),
      (f) => f[0]?.status === 'settling',
    );
    await runA.stop();
    await first.close();

    const second = watchEngine(sb, home);
    cleanup.push(() => second.close());
    const runB = running(second);
    cleanup.push(() => runB.stop());
    await waitFor(
      'pending.mp3 queued well before the minute',
      () => jobsOf(second.api, folder.id),
      (j) => j.length === 2,
      20_000,
    );
  });
});
