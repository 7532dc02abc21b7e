import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { addFolder, filesOf, folderOf, jobsOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(balance = 100_000) {
  const sb: Sandbox = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance });
  cleanup.push(() => sb.stop());
  const host = watchEngine(sb);
  cleanup.push(() => host.close());
  const run = running(host);
  cleanup.push(() => run.stop());
  return { sb, host, api: host.api };
}

describe('the spending guard', () => {
  it('holds files over the folder’s credit limit for approval, and those after them, until approved', async () => {
    const { api } = await setup();
    await api.pauseQueue();
    const dir = tempDir('dubdesk-watch-');
    // es + fr: a 3-second file costs 8 credits, a 1-second one 4 (whole seconds per language, rounded up).
    const folder = await addFolder(api, dir, { creditLimit: 5 });
    await copyFile(audioMp3(3, 'guard-long.mp3'), join(dir, 'long.mp3'));
    const held = await waitFor(
      'long.mp3 to await approval',
      () => filesOf(api, folder.id),
      (f) => f[0]?.status === 'awaiting-approval',
    );
    expect(held[0]?.problem).toMatchObject({ code: 'credits' });
    expect(held[0]?.problem?.message).toMatch(/over its limit of 5 per hour/);
    await copyFile(audioMp3(1, 'guard-short.mp3'), join(dir, 'short.mp3'));
    await waitFor(
      'short.mp3 to wait behind it',
      () => filesOf(api, folder.id),
      (f) => f.filter((x) => x.status === 'awaiting-approval').length === 2,
    );
    expect(await jobsOf(api, folder.id)).toEqual([]);
    const before = await folderOf(api, folder.id);
    expect(before.counts.awaitingApproval).toBe(2);
    expect(before.awaitingCredits).toBeGreaterThanOrEqual(12);

    const approved = await api.approveWatchFolder({ id: folder.id });
    expect(approved.queued).toBe(2);
    expect(approved.credits).toBe(before.awaitingCredits);
    await waitFor(
      'four jobs',
      () => jobsOf(api, folder.id),
      (j) => j.length === 4,
    );
    expect((await folderOf(api, folder.id)).creditsLastHour).toBe(0); // approved spending is not automatic

    // Within the limit: queued by itself. Then the hour's budget is used up: held again.
    await copyFile(audioMp3(0.9, 'guard-within.mp3'), join(dir, 'within.mp3'));
    await waitFor(
      'within.mp3 queued',
      () => jobsOf(api, folder.id),
      (j) => j.length === 6,
    );
    const within = (await filesOf(api, folder.id)).find((f) => f.name === 'within.mp3');
    expect(within?.credits).toBe(2);
    expect((await folderOf(api, folder.id)).creditsLastHour).toBe(2);
    await copyFile(audioMp3(1.2, 'guard-short2.mp3'), join(dir, 'over.mp3'));
    await waitFor(
      'over.mp3 held',
      () => filesOf(api, folder.id),
      (f) => f.find((x) => x.name === 'over.mp3')?.status === 'awaiting-approval',
    );
    expect(await jobsOf(api, folder.id)).toHaveLength(6);
  });

  it('holds a batch over the account balance even without a folder limit', async () => {
    const { api } = await setup(3);
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir);
    await copyFile(audioMp3(2, 'guard-poor.mp3'), join(dir, 'poor.mp3'));
    const [file] = await waitFor(
      'poor.mp3 to await approval',
      () => filesOf(api, folder.id),
      (f) => f[0]?.status === 'awaiting-approval',
    );
    expect(file?.problem?.message).toMatch(/the balance is 3/);
    expect(await jobsOf(api, folder.id)).toEqual([]);
  });
});

describe('after: move', () => {
  it('moves an original to done/ only once every language completed, keeping its subfolder', async () => {
    const { api } = await setup();
    await api.pauseQueue();
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, { after: 'move', recursive: true });
    await mkdir(join(dir, 'season 1'));
    const original = join(dir, 'season 1', 'ep1.mp3');
    await copyFile(audioMp3(1, 'move-ok.mp3'), original);
    const jobs = await waitFor(
      'two jobs',
      () => jobsOf(api, folder.id),
      (j) => j.length === 2,
    );
    const fr = jobs.find((j) => j.destLang === 'fr');
    await api.pauseJobs({ ids: [fr?.id ?? 0] });
    await api.resumeQueue();
    await waitFor(
      'es completed',
      () => jobsOf(api, folder.id),
      (j) => j.find((x) => x.destLang === 'es')?.state === 'completed',
    );
    // Two full scans later (each looks at finished files again), fr is still paused: it stays.
    const a = (await folderOf(api, folder.id)).lastScanAt;
    await waitFor(
      'a scan',
      () => folderOf(api, folder.id),
      (f) => f.lastScanAt !== a,
    );
    const b = (await folderOf(api, folder.id)).lastScanAt;
    await waitFor(
      'another scan',
      () => folderOf(api, folder.id),
      (f) => f.lastScanAt !== b,
    );
    expect(existsSync(original)).toBe(true);

    await api.resumeJobs({ ids: [fr?.id ?? 0] });
    const moved = join(dir, 'done', 'season 1', 'ep1.mp3');
    await waitFor('the original moved to done/', () => existsSync(moved) && !existsSync(original), Boolean);
    // The move is recorded once it is made on disk (a crash between the two is settled at the next start).
    const [file] = await waitFor(
      'the move recorded',
      () => filesOf(api, folder.id),
      ([f]) => f?.movedTo === moved,
    );
    expect(file).toMatchObject({ status: 'done', movedTo: moved, gone: false });
    // done/ is never watched: nothing new is queued for the moved file.
    const c = (await folderOf(api, folder.id)).lastScanAt;
    await waitFor(
      'a scan after the move',
      () => folderOf(api, folder.id),
      (f) => f.lastScanAt !== c,
    );
    expect(await jobsOf(api, folder.id)).toHaveLength(2);
  });

  it('moves an original to failed/ when a language failed, and reprocess dubs it from there', async () => {
    const { sb, api } = await setup();
    sb.setFaults({ rateDubFailure: 1 });
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, { after: 'move' });
    const original = join(dir, 'bad.mp3');
    await copyFile(audioMp3(1, 'move-bad.mp3'), original);
    const moved = join(dir, 'failed', 'bad.mp3');
    await waitFor('the original moved to failed/', () => existsSync(moved) && !existsSync(original), Boolean);
    expect((await jobsOf(api, folder.id)).map((j) => j.state)).toEqual(['failed', 'failed']);
    // The file is moved first, and where it went recorded after: the record is waited for.
    const [record] = await waitFor(
      'the move recorded',
      () => filesOf(api, folder.id),
      (files) => files[0]?.movedTo !== null,
    );
    expect(record).toMatchObject({ status: 'failed', movedTo: moved });

    sb.setFaults({ rateDubFailure: 0 });
    const again = await api.reprocessWatchFile({ id: folder.id, path: moved });
    expect(again.jobIds).toHaveLength(2);
    const done = join(dir, 'done', 'bad.mp3');
    await waitFor('dubbed, then moved on to done/', () => existsSync(done) && !existsSync(moved), Boolean);
    expect((await filesOf(api, folder.id))[0]).toMatchObject({ status: 'done', movedTo: done });
  });
});
