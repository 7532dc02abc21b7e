import { copyFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { addFolder, jobsOf, waitFor, allCompleted, watchingSandbox } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const setup = () => watchingSandbox(cleanup);

describe('a re-export of a watched file', () => {
  it('is dubbed under the plain names; the older results move to previous/, never beside as (2)', async () => {
    const { sb, api } = await setup();
    const dir = tempDir('dubdesk-watch-');
    const out = tempDir('dubdesk-out-');
    const folder = await addFolder(api, dir, { to: ['es'], outDir: out });
    await copyFile(audioMp3(1, 'reexport-one.mp3'), join(dir, 'lecture.mp3'));
    const [first] = await waitFor('the first export dubbed', () => jobsOf(api, folder.id), allCompleted(1));
    const plain = join(out, 'lecture.es.mp3');
    expect(first?.outputs.map((o) => o.path)).toContain(plain);
    const v1 = await readFile(plain);

    await copyFile(audioMp3(2, 'reexport-two.mp3'), join(dir, 'lecture.mp3'));
    const jobs = await waitFor('the re-export dubbed', () => jobsOf(api, folder.id), allCompleted(2));
    const second = jobs.find((j) => j.id !== first?.id);
    expect(second?.outputs.map((o) => o.path)).toContain(plain);
    expect(await readFile(plain)).not.toEqual(v1);
    expect(await readFile(join(out, 'previous', 'lecture.es.mp3'))).toEqual(v1);
    // The earlier job's record follows its file.
    const earlier = await api.getJob({ id: first?.id ?? 0 });
    expect(earlier.outputs.map((o) => o.path)).toContain(join(out, 'previous', 'lecture.es.mp3'));
    const names = [...(await readdir(out)), ...(await readdir(join(out, 'previous')))];
    expect(names.filter((n) => /\(\d+\)/.test(n))).toEqual([]);
    expect(sb.state.ledger).toHaveLength(2);
  });
});
