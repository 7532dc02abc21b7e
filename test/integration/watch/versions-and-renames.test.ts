/**
 * A watched file's versions and renames as the queue shows them (issue 31.12): a new version of a file is
 * its row's chips and length, the earlier one beside it (not two chips per language under the old length);
 * a rename is the same file: its results keep their names (no second set is made), and the old name is
 * gone, renamed to the new one.
 */
import { copyFile, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { addFolder, allCompleted, filesOf, jobsOf, waitFor, watchingSandbox } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('a watched file in the queue', () => {
  it('a new version is the row: one chip per language and its own length, the earlier version beside it', async () => {
    const { api } = await watchingSandbox(cleanup);
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(api, dir, { outDir: tempDir('dubdesk-out-') });
    await copyFile(audioMp3(1.5, 'version-one.mp3'), join(dir, 'talk.mp3'));
    const first = await waitFor('the first version dubbed', () => jobsOf(api, folder.id), allCompleted(2));
    await copyFile(audioMp3(4.5, 'version-two.mp3'), join(dir, 'talk.mp3'));
    const all = await waitFor('the second version dubbed', () => jobsOf(api, folder.id), allCompleted(4));
    const second = all.filter((j) => !first.some((f) => f.id === j.id));

    const { sources } = await api.listSources({ filter: {}, offset: 0, limit: 10 });
    expect(sources).toHaveLength(1);
    const row = sources[0];
    expect(row?.jobs.map((j) => j.id).sort()).toEqual(second.map((j) => j.id).sort());
    expect(row?.jobs.map((j) => j.destLang).sort()).toEqual(['es', 'fr']);
    expect(row?.durationSeconds).toBeGreaterThan(4);
    expect(row?.earlier.map((j) => j.id).sort()).toEqual(first.map((j) => j.id).sort());
  });

  it('a renamed file keeps its results under their names, makes no second set, and the old name is gone', async () => {
    const { sb, api } = await watchingSandbox(cleanup);
    const dir = tempDir('dubdesk-watch-');
    const out = tempDir('dubdesk-out-');
    const folder = await addFolder(api, dir, { outDir: out });
    await copyFile(audioMp3(1.5, 'rename-me.mp3'), join(dir, 'draft name.mp3'));
    const jobs = await waitFor('the file dubbed', () => jobsOf(api, folder.id), allCompleted(2));
    const results = (await readdir(out)).sort();

    await rename(join(dir, 'draft name.mp3'), join(dir, 'final name.mp3'));
    const files = await waitFor(
      'the new name taken and the old one gone',
      () => filesOf(api, folder.id),
      (f) =>
        f.some((x) => x.name === 'final name.mp3' && x.status === 'duplicate') &&
        f.some((x) => x.name === 'draft name.mp3' && x.gone),
    );
    const renamed = files.find((f) => f.name === 'final name.mp3');
    expect(renamed).toMatchObject({ duplicateOf: join(dir, 'draft name.mp3'), credits: 0 });
    expect(renamed?.jobIds.sort()).toEqual(jobs.map((j) => j.id).sort());
    // No copy jobs, no second set of results, nothing charged again.
    expect(await jobsOf(api, folder.id)).toHaveLength(2);
    expect((await readdir(out)).sort()).toEqual(results);
    expect(sb.state.ledger).toHaveLength(2);
  });
});
