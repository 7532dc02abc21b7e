import { copyFile, readdir, readFile, rename, utimes } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import {
  addFolder,
  filesOf,
  folderOf,
  jobsOf,
  running,
  waitFor,
  watchEngine,
  allCompleted,
} from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup() {
  const sb: Sandbox = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
  cleanup.push(() => sb.stop());
  const host = watchEngine(sb);
  cleanup.push(() => host.close());
  return { sb, host, api: host.api };
}

const charges = (sb: Sandbox) => sb.state.ledger.length;

describe('a watched folder dubs each content once per preset version', () => {
  it('does not charge a renamed or copied identical file twice (a rename keeps the results, a copy gets its own names); a changed file is a new version with new names', async () => {
    const { sb, host, api } = await setup();
    const dir = tempDir('dubdesk-watch-');
    const out = tempDir('dubdesk-out-');
    const folder = await addFolder(api, dir, { outDir: out });
    const run = running(host);
    cleanup.push(() => run.stop());

    await copyFile(audioMp3(1, 'dedupe-one.mp3'), join(dir, 'a.mp3'));
    const first = await waitFor('a.mp3 dubbed', () => jobsOf(api, folder.id), allCompleted(2));
    expect(charges(sb)).toBe(2);

    // Renamed: the same file; it shares the dubs made, whose results keep their names (issue 31.12).
    await rename(join(dir, 'a.mp3'), join(dir, 'b.mp3'));
    // Copied: a third name, same content: its own result names, copied from the dubs made.
    await copyFile(join(dir, 'b.mp3'), join(dir, 'c.mp3'));
    const files = await waitFor(
      'b.mp3 and c.mp3 found to be duplicates',
      () => filesOf(api, folder.id),
      (f) => f.filter((x) => x.status === 'duplicate').length === 2,
    );
    const b = files.find((f) => f.name === 'b.mp3');
    expect(b).toMatchObject({ duplicateOf: join(dir, 'a.mp3'), credits: 0 });
    const copies = await waitFor('the copies done', () => jobsOf(api, folder.id), allCompleted(4));
    expect(b?.jobIds.sort()).toEqual(first.map((j) => j.id).sort());
    expect(copies.filter((j) => j.source === join(dir, 'b.mp3'))).toEqual([]);
    expect(copies.slice(2).map((j) => j.creditsCharged)).toEqual([0, 0]);
    for (const lang of ['es', 'fr'])
      expect(await readFile(join(out, `c.${lang}.mp3`))).toEqual(await readFile(join(out, `a.${lang}.mp3`)));
    expect((await readdir(out)).filter((n) => n.startsWith('b.'))).toEqual([]);
    await waitFor(
      'a.mp3 marked gone',
      () => filesOf(api, folder.id),
      (f) => f.some((x) => x.name === 'a.mp3' && x.gone),
    );
    expect(charges(sb)).toBe(2);
    expect((await folderOf(api, folder.id)).counts).toMatchObject({ done: 1, duplicates: 2 });

    // Changed content, same name: a new version, dubbed again, under names that replace nothing.
    const v1Outputs = first.flatMap((j) => j.outputs.map((o) => o.path));
    const v1Bytes = await Promise.all(v1Outputs.map((p) => readFile(p)));
    await copyFile(audioMp3(2, 'dedupe-two.mp3'), join(dir, 'b.mp3'));
    const jobs = await waitFor(
      'the new version of b.mp3 dubbed',
      () => jobsOf(api, folder.id),
      allCompleted(6),
    );
    expect(charges(sb)).toBe(4);
    const v2 = jobs.filter((j) => !copies.some((f) => f.id === j.id));
    expect(v2.map((j) => j.source)).toEqual([join(dir, 'b.mp3'), join(dir, 'b.mp3')]);
    const v2Outputs = v2.flatMap((j) => j.outputs.map((o) => o.path));
    for (const p of v2Outputs) expect(v1Outputs).not.toContain(p);
    expect(await Promise.all(v1Outputs.map((p) => readFile(p)))).toEqual(v1Bytes);
    const versions = (await filesOf(api, folder.id))
      .filter((f) => f.name === 'b.mp3')
      .map((f) => [f.version, f.status]);
    expect(versions).toEqual([
      [2, 'done'],
      [1, 'duplicate'],
    ]);

    // Touched only (same bytes, new mtime): no new version, nothing queued.
    const later = new Date(Date.now() + 5000);
    await utimes(join(dir, 'b.mp3'), later, later);
    const scanned = (await folderOf(api, folder.id)).lastScanAt;
    await waitFor(
      'a full scan after the touch',
      () => folderOf(api, folder.id),
      (f) => f.lastScanAt !== scanned,
    );
    await waitFor(
      'the touch to be settled',
      () => filesOf(api, folder.id),
      (f) => f.every((x) => x.status !== 'settling'),
    );
    expect(await jobsOf(api, folder.id)).toHaveLength(6);
    expect((await filesOf(api, folder.id)).filter((f) => f.name === 'b.mp3')).toHaveLength(2);

    // Reprocess overrides: c.mp3 (a duplicate) is dubbed again, on purpose, and charged.
    const again = await api.reprocessWatchFile({ id: folder.id, path: join(dir, 'c.mp3') });
    expect(['queued', 'working']).toContain(again.status); // the runner may have taken it already
    expect(again.jobIds).toHaveLength(2);
    const redone = await waitFor('c.mp3 dubbed again', () => jobsOf(api, folder.id), allCompleted(8));
    expect(charges(sb)).toBe(6);
    // The new dub takes the plain names; the copies it replaces are moved aside, never left as `(2)`.
    const names = (ids: readonly number[]) =>
      redone.filter((j) => ids.includes(j.id)).flatMap((j) => j.outputs.map((o) => relative(out, o.path)));
    expect(names(again.jobIds).sort()).toEqual(['c.es.mp3', 'c.es.vtt', 'c.fr.mp3', 'c.fr.vtt']);
    expect((await readdir(join(out, 'previous'))).sort()).toEqual([
      'c.es.mp3',
      'c.es.vtt',
      'c.fr.mp3',
      'c.fr.vtt',
    ]);
    const c = (await filesOf(api, folder.id)).find((f) => f.name === 'c.mp3');
    expect(c).toMatchObject({ status: 'done', duplicateOf: null });
    // a.mp3 was renamed away: nothing to dub again, and the reason says so.
    await expect(api.reprocessWatchFile({ id: folder.id, path: join(dir, 'a.mp3') })).rejects.toMatchObject({
      code: 'not-found',
      message: `${join(dir, 'a.mp3')} is no longer there`,
    });
  });

  it('cancels the queued jobs of an earlier version that never started, and queues the new one', async () => {
    const { api, host } = await setup();
    await api.pauseQueue();
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir);
    const run = running(host);
    cleanup.push(() => run.stop());
    await copyFile(audioMp3(1, 'super-one.mp3'), join(dir, 'clip.mp3'));
    await waitFor(
      'the first version queued',
      () => jobsOf(api, folder.id),
      (j) => j.length === 2,
    );
    await copyFile(audioMp3(2, 'super-two.mp3'), join(dir, 'clip.mp3'));
    const jobs = await waitFor(
      'the second version queued',
      () => jobsOf(api, folder.id),
      (j) => j.filter((x) => x.state === 'queued').length === 2 && j.length === 4,
    );
    expect(jobs.filter((j) => j.state === 'canceled')).toHaveLength(2);
    expect(jobs.filter((j) => j.state === 'queued').every((j) => (j.durationSeconds ?? 0) > 1.5)).toBe(true);
    const files = await filesOf(api, folder.id);
    expect(files.map((f) => [f.version, f.status])).toEqual([
      [2, 'queued'],
      [1, 'canceled'],
    ]);
  });
});
