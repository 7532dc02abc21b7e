import { execFileSync } from 'node:child_process';
import { appendFile, copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WatchFolder } from '../../../shared/contract/watch';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3, videoMatroska, videoMp4 } from '../../helpers/media';
import {
  addFolder,
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

async function setup(settleMs?: number): Promise<{ sb: Sandbox; host: ReturnType<typeof watchEngine> }> {
  const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
  cleanup.push(() => sb.stop());
  const host = watchEngine(sb, undefined, settleMs ? { settleMs } : {});
  cleanup.push(() => host.close());
  return { sb, host };
}

/** A folder watched by an engine whose queue is paused: only the watcher is under test, nothing is sent. */
async function pausedWatching(settleMs: number) {
  const { host } = await setup(settleMs);
  const { api } = host;
  await api.pauseQueue();
  const dir = tempDir('dubdesk-watch-');
  const folder = await addFolder(api, dir);
  const run = running(host);
  cleanup.push(() => run.stop());
  await waitFor(
    'the folder to be watched',
    () => folderOf(api, folder.id),
    (f) => f.status === 'watching',
  );
  return { api, dir, folder };
}

describe('a watched folder takes files once they stop growing', () => {
  // A copy that stalls half-way for longer than the settle time: the container says it is not whole (MP4
  // boxes; a Matroska/WebM segment size), so it waits; whole, it is taken once.
  it.each([
    { name: 'lecture.mp4', media: () => videoMp4(20, 'lecture-src.mp4'), says: 'lecture.mp4', seconds: 19 },
    {
      name: 'half.mkv',
      media: () => videoMatroska(16, 'src-half.mkv'),
      says: 'Matroska segment',
      seconds: 15,
    },
    {
      name: 'half.webm',
      media: () => videoMatroska(16, 'src-half.webm'),
      says: 'Matroska segment',
      seconds: 15,
    },
  ])(
    'a $name that stalls half-way waits as not whole; whole, it is taken once',
    async ({ name, media, says, seconds }) => {
      const { api, dir, folder } = await pausedWatching(300);
      const whole = await readFile(media());
      const dest = join(dir, name);
      await writeFile(dest, whole.subarray(0, whole.length / 2));
      // The half stays quiet well past the settle time: the watcher looks at it and says what it waits for.
      const [file] = await waitFor(
        'the half-copied file to wait as not whole',
        () => filesOf(api, folder.id),
        (f) => f.some((x) => x.status === 'waiting' && /not whole yet/.test(x.problem?.message ?? '')),
      );
      expect(file?.problem?.message).toContain(says);
      expect(await jobsOf(api, folder.id)).toEqual([]);

      await appendFile(dest, whole.subarray(whole.length / 2));
      const jobs = await waitFor(
        'two jobs',
        () => jobsOf(api, folder.id),
        (j) => j.length >= 2,
      );
      expect(jobs.map((j) => [j.source, j.destLang])).toEqual([
        [dest, 'es'],
        [dest, 'fr'],
      ]);
      expect(jobs[0]?.durationSeconds).toBeGreaterThan(seconds); // the whole file, not its first half
    },
  );

  it('queues a file written slowly in chunks once, after its last write', async () => {
    const { api, dir, folder } = await pausedWatching(1500);

    const told: WatchFolder[] = [];
    api.subscribe((e) => {
      if (e.type === 'watch-folder' && e.folder.id === folder.id) told.push(e.folder);
    });
    const dest = join(dir, 'slow.mp3');
    // 12 chunks 300 ms apart: over three seconds of writing, each pause well within the 1.5 s settle time.
    const lastWrite = await writeSlowly(audioMp3(3, 'slow-src.mp3'), dest, 12, 300);
    const jobs = await waitFor(
      'two jobs',
      () => jobsOf(api, folder.id),
      (j) => j.length >= 2,
    );
    expect(jobs.map((j) => [j.source, j.destLang])).toEqual([
      [dest, 'es'],
      [dest, 'fr'],
    ]);
    for (const j of jobs) expect(Date.parse(j.createdAt)).toBeGreaterThanOrEqual(lastWrite);
    // The jobs say which folder queued them, and a filter finds them.
    expect(jobs.every((j) => j.watchFolderId === folder.id)).toBe(true);
    expect((await api.listJobs({ filter: { watchFolderId: folder.id } })).total).toBe(2);
    // Faces heard the folder's counts move: the file waiting, then queued.
    await waitFor(
      'an event with the file queued',
      () => told,
      (t) => t.some((f) => f.counts.queued === 1),
    );
    expect(told.some((f) => f.counts.waiting === 1)).toBe(true);
    expect(jobs[0]?.durationSeconds).toBeGreaterThan(2.5); // probed whole, not a partial head

    // Rescans come and go (every 2 s): nothing is queued again.
    const scanned = (await folderOf(api, folder.id)).lastScanAt;
    await waitFor(
      'two more full scans',
      () => folderOf(api, folder.id),
      (f) => f.lastScanAt !== scanned,
    );
    const again = (await folderOf(api, folder.id)).lastScanAt;
    await waitFor(
      'another scan',
      () => folderOf(api, folder.id),
      (f) => f.lastScanAt !== again,
    );
    expect(await jobsOf(api, folder.id)).toHaveLength(2);
    const files = await filesOf(api, folder.id);
    expect(files.map((f) => [f.name, f.status, f.version])).toEqual([['slow.mp3', 'queued', 1]]);
  });

  it('ignores temporary, partial, hidden and system files, its own results and a FIFO, without blocking', async () => {
    const { host } = await setup();
    const { api } = host;
    await api.pauseQueue();
    const dir = tempDir('dubdesk-watch-');
    // Results go to a folder inside the watched one, and beside the sources too (outDir = the folder).
    const inside = await addFolder(api, dir, { outDir: null, recursive: true });
    const src = audioMp3(1, 'ignore-src.mp3');
    const names = [
      'movie.mp3.part',
      'movie.mp3.crdownload',
      'movie.tmp',
      '~$movie.mp3',
      '.hidden.mp3',
      '._movie.mp3',
      '.DS_Store',
      'Thumbs.db',
      'desktop.ini',
      'notes.txt',
    ];
    for (const n of names) await copyFile(src, join(dir, n));
    await mkdir(join(dir, 'dubbed'), { recursive: true });
    await copyFile(src, join(dir, 'dubbed', 'movie.es.mp3')); // the default output folder is ours
    await mkdir(join(dir, 'done'), { recursive: true });
    await copyFile(src, join(dir, 'done', 'old.mp3'));
    await mkdir(join(dir, '.git'), { recursive: true });
    await copyFile(src, join(dir, '.git', 'blob.mp3'));
    execFileSync('mkfifo', [join(dir, 'pipe.mp3')]);
    await copyFile(src, join(dir, 'real.mp3'));
    const run = running(host);
    cleanup.push(() => run.stop());
    await waitFor(
      'the real file queued',
      () => jobsOf(api, inside.id),
      (j) => j.length === 2,
    );
    // Two full scans later (the FIFO was stat'ed each time, never opened), still only the real file.
    const first = (await folderOf(api, inside.id)).lastScanAt;
    await waitFor(
      'a rescan',
      () => folderOf(api, inside.id),
      (f) => f.lastScanAt !== first,
    );
    const files = await filesOf(api, inside.id);
    expect(files.map((f) => f.name)).toEqual(['real.mp3']);
    expect(new Set((await jobsOf(api, inside.id)).map((j) => j.source))).toEqual(
      new Set([join(dir, 'real.mp3')]),
    );
  });

  it('never takes its own results when they are written beside the sources', async () => {
    const { host } = await setup();
    const { api } = host;
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, { outDir: dir });
    await copyFile(audioMp3(1, 'beside-src.mp3'), join(dir, 'talk.mp3'));
    const run = running(host);
    cleanup.push(() => run.stop());
    const done = await waitFor(
      'both languages dubbed and downloaded',
      () => jobsOf(api, folder.id),
      (j) => j.length === 2 && j.every((x) => x.state === 'completed'),
    );
    const outputs = done.flatMap((j) => j.outputs.map((o) => o.path));
    expect(outputs).toContain(join(dir, 'talk.es.mp3'));
    const scanned = (await folderOf(api, folder.id)).lastScanAt;
    await waitFor(
      'a full scan after the downloads',
      () => folderOf(api, folder.id),
      (f) => f.lastScanAt !== scanned,
    );
    expect(await jobsOf(api, folder.id)).toHaveLength(2);
    expect((await filesOf(api, folder.id)).map((f) => [f.name, f.status])).toEqual([['talk.mp3', 'done']]);
  });
});

describe('two watched folders, one writing into the other', () => {
  it("the second never dubs the first one's results (a dub of a dub, paid for)", async () => {
    const { host } = await setup();
    const { api } = host;
    const root = tempDir('dubdesk-watch-');
    const inbox = join(root, 'in');
    const outbox = join(root, 'out');
    await mkdir(inbox);
    await mkdir(outbox);
    const first = await addFolder(api, inbox, { outDir: outbox });
    const second = await addFolder(api, outbox);
    await copyFile(audioMp3(1, 'chain-src.mp3'), join(inbox, 'talk.mp3'));
    const run = running(host);
    cleanup.push(() => run.stop());
    await waitFor(
      "the first folder's dubs",
      () => jobsOf(api, first.id),
      (j) => j.length === 2 && j.every((x) => x.state === 'completed'),
    );
    const scanned = (await folderOf(api, second.id)).lastScanAt;
    await waitFor(
      'a full scan of the second folder after the downloads',
      () => folderOf(api, second.id),
      (f) => f.lastScanAt !== scanned,
    );
    expect(await jobsOf(api, second.id)).toEqual([]);
  });
  it("never dubs the first one's results reached through a symlink (the output folder links into the second)", async () => {
    const { host } = await setup();
    const { api } = host;
    const root = tempDir('dubdesk-watch-');
    const inbox = join(root, 'in');
    const watched = join(root, 'watched');
    await mkdir(inbox);
    await mkdir(join(watched, 'results'), { recursive: true });
    // The first folder writes through a link; the second watches the real folder, recursively.
    await symlink(join(watched, 'results'), join(root, 'results-link'));
    const first = await addFolder(api, inbox, { outDir: join(root, 'results-link') });
    const second = await addFolder(api, watched, { recursive: true });
    await copyFile(audioMp3(1, 'link-src.mp3'), join(inbox, 'talk.mp3'));
    const run = running(host);
    cleanup.push(() => run.stop());
    await waitFor(
      "the first folder's dubs",
      () => jobsOf(api, first.id),
      (j) => j.length === 2 && j.every((x) => x.state === 'completed'),
    );
    const scanned = (await folderOf(api, second.id)).lastScanAt;
    await waitFor(
      'a full scan of the second folder after the downloads',
      () => folderOf(api, second.id),
      (f) => f.lastScanAt !== scanned,
    );
    expect(await jobsOf(api, second.id)).toEqual([]);
  });
});

describe('readiness is never final', () => {
  it('rechecks a file that is not media with backoff, shows it needs attention, and takes it once it is fixed', async () => {
    const { host } = await setup();
    const { api } = host;
    await api.pauseQueue();
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir);
    const run = running(host);
    cleanup.push(() => run.stop());
    const path = join(dir, 'export.mp4');
    await writeFile(path, 'not a video yet\n'.repeat(100));
    const [waiting] = await waitFor(
      'export.mp4 waiting after a failed probe',
      () => filesOf(api, folder.id),
      (f) => f[0]?.status === 'waiting',
    );
    expect(waiting?.problem).toMatchObject({ code: 'not-media' });
    expect(waiting?.problem?.message).toMatch(/not a video or audio file/);
    expect(Date.parse(waiting?.nextCheckAt ?? '')).toBeGreaterThan(Date.parse(waiting?.firstSeenAt ?? ''));
    // The maximum wait (3 s in tests) passes: a person has to look, and is told why.
    const [attention] = await waitFor(
      'export.mp4 to need attention',
      () => filesOf(api, folder.id),
      (f) => f[0]?.status === 'attention',
    );
    expect(attention?.problem?.message).toMatch(/still so after/);
    expect((await folderOf(api, folder.id)).counts.attention).toBe(1);
    expect(await jobsOf(api, folder.id)).toEqual([]);
    // The export is redone: a change starts over, and this time it is taken.
    await copyFile(videoMp4(1, 'ready-fixed.mp4'), path);
    await waitFor(
      'export.mp4 queued',
      () => jobsOf(api, folder.id),
      (j) => j.length === 2,
    );
    expect((await filesOf(api, folder.id))[0]).toMatchObject({ status: 'queued', problem: null, version: 1 });
  });

  it('waits on an empty placeholder until it has content', async () => {
    const { host } = await setup();
    const { api } = host;
    await api.pauseQueue();
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir);
    const run = running(host);
    cleanup.push(() => run.stop());
    const path = join(dir, 'render.mp3');
    await writeFile(path, '');
    const [file] = await waitFor(
      'render.mp3 waiting',
      () => filesOf(api, folder.id),
      (f) => f[0]?.status === 'waiting',
    );
    expect(file?.problem?.message).toMatch(/empty/);
    await copyFile(audioMp3(1, 'placeholder-filled.mp3'), path);
    await waitFor(
      'render.mp3 queued',
      () => jobsOf(api, folder.id),
      (j) => j.length === 2,
    );
  });
});
