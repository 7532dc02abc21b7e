import { copyFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { addFolder, filesOf, jobsOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('a watched-folder duplicate gets results under its own names, at no charge', () => {
  it('two identical files dropped together: one charge, both have byte-identical results', async () => {
    const sb: Sandbox = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const host = watchEngine(sb);
    cleanup.push(() => host.close());
    const { api } = host;
    const dir = tempDir('dubdesk-watch-');
    const out = tempDir('dubdesk-out-');
    const folder = await addFolder(api, dir, { to: ['es'], outDir: out });
    const run = running(host);
    cleanup.push(() => run.stop());

    const source = audioMp3(1, 'dupe-copies.mp3');
    await copyFile(source, join(dir, 'talk.mp3'));
    await copyFile(source, join(dir, 'talk copy.mp3'));

    const jobs = await waitFor(
      'both files to have finished jobs',
      () => jobsOf(api, folder.id),
      (j) => j.length === 2 && j.every((x) => x.state === 'completed'),
    );
    expect(sb.state.ledger).toHaveLength(1);
    expect(jobs.filter((j) => j.creditsCharged === 0)).toHaveLength(1);

    const talk = join(out, 'talk.es.mp3');
    const copy = join(out, 'talk copy.es.mp3');
    expect((await readFile(copy)).equals(await readFile(talk))).toBe(true);
    expect((await stat(copy)).ino).toBe((await stat(talk)).ino);

    const files = await filesOf(api, folder.id);
    const original = files.find((f) => f.duplicateOf === null);
    const duplicate = files.find((f) => f.duplicateOf !== null);
    expect(duplicate).toMatchObject({ status: 'duplicate', credits: 0, duplicateOf: original?.path });
    const copyJob = jobs.find((j) => j.creditsCharged === 0);
    expect(duplicate?.jobIds).toEqual([copyJob?.id]);
    expect(copyJob?.copiedFrom).toBe(
      original?.path === join(dir, 'talk.mp3') ? 'talk.es.mp3' : 'talk copy.es.mp3',
    );
  });

  it('a duplicate whose copy cannot be made (the dub failed) shows as failed, with the way forward', async () => {
    const sb: Sandbox = await startSandbox({
      ffmpeg: false,
      pipelineSeconds: 0.2,
      balance: 100_000,
      faults: { rateDubFailure: 1 },
    });
    cleanup.push(() => sb.stop());
    const host = watchEngine(sb);
    cleanup.push(() => host.close());
    const { api } = host;
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, { to: ['es'] });
    const run = running(host);
    cleanup.push(() => run.stop());

    const source = audioMp3(1, 'dupe-fails.mp3');
    await copyFile(source, join(dir, 'take.mp3'));
    await copyFile(source, join(dir, 'take again.mp3'));
    const jobs = await waitFor(
      'both jobs to fail',
      () => jobsOf(api, folder.id),
      (j) => j.length === 2 && j.every((x) => x.state === 'failed'),
    );
    expect(jobs.find((j) => j.error?.code === 'not-found')?.error?.remedy).toMatch(/--again/);
    const files = await waitFor(
      'both files shown as failed',
      () => filesOf(api, folder.id),
      (f) => f.length === 2 && f.every((x) => x.status === 'failed'),
    );
    expect(files.filter((f) => f.duplicateOf !== null)).toHaveLength(1);
  });

  it('a file dubbed by hand elsewhere, then dropped in a watched folder: copied, not paid again', async () => {
    const sb: Sandbox = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const host = watchEngine(sb);
    cleanup.push(() => host.close());
    const { api } = host;
    const run = running(host);
    cleanup.push(() => run.stop());
    const source = audioMp3(1, 'dupe-by-hand.mp3');
    const handOut = tempDir('dubdesk-hand-');
    const added = await api.add({ inputs: [source], to: ['es'], outDir: handOut });
    await waitFor(
      'the manual dub done',
      () => api.getJob({ id: added.added[0] ?? 0 }),
      (j) => j.state === 'completed',
    );

    const dir = tempDir('dubdesk-watch-');
    const out = tempDir('dubdesk-out-');
    const folder = await addFolder(api, dir, { to: ['es'], outDir: out });
    await copyFile(source, join(dir, 'lecture.mp3'));
    const [job] = await waitFor(
      'the watched copy done',
      () => jobsOf(api, folder.id),
      (j) => j.length === 1 && j[0]?.state === 'completed',
    );
    expect(job).toMatchObject({ creditsCharged: 0, copiedFrom: 'dupe-by-hand.es.mp3' });
    expect(sb.state.ledger).toHaveLength(1);
    expect(
      (await readFile(join(out, 'lecture.es.mp3'))).equals(
        await readFile(join(handOut, 'dupe-by-hand.es.mp3')),
      ),
    ).toBe(true);
    expect((await filesOf(api, folder.id))[0]).toMatchObject({ status: 'duplicate', credits: 0 });
  });
});
