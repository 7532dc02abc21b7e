import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { addFolder, filesOf, jobsOf, waitFor, allCompleted, watchingSandbox } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const setup = () => watchingSandbox(cleanup);

describe("a copy of Dubdesk's own result", () => {
  it('dropped into a watched folder is not dubbed, says why, and is dubbed on purpose by reprocess', async () => {
    const { sb, api } = await setup();
    const dir = tempDir('dubdesk-watch-');
    const out = tempDir('dubdesk-out-');
    const folder = await addFolder(api, dir, { to: ['de'], outDir: out });
    copyFileSync(videoMp4(2, 's6.mp4'), join(dir, 's6.mp4'));
    await waitFor('s6 dubbed', () => jobsOf(api, folder.id), allCompleted(1));
    expect(sb.state.ledger).toHaveLength(1);

    // A copy (a new inode, so not known by device and inode), under another name.
    const copy = join(dir, 'my result.mp4');
    copyFileSync(join(out, 's6.de.mp4'), copy);
    const files = await waitFor(
      'the copy to be set aside',
      () => filesOf(api, folder.id),
      (f) => f.some((x) => x.path === copy && x.status === 'attention'),
    );
    const held = files.find((x) => x.path === copy);
    expect(held?.problem?.message).toContain("a copy of Dubdesk's result s6.de.mp4; not dubbed");
    expect(held?.problem?.remedy).toContain('--reprocess');
    expect(await jobsOf(api, folder.id)).toHaveLength(1);
    expect(sb.state.ledger).toHaveLength(1);

    // Manually, the same words: refused unless --again.
    const elsewhere = join(tempDir(), 'again.mp4');
    copyFileSync(join(out, 's6.de.mp4'), elsewhere);
    const refused = await api.add({ inputs: [elsewhere], to: ['fr'], outDir: tempDir() });
    expect(refused.added).toEqual([]);
    expect(refused.refused[0]?.error.message).toContain("a copy of Dubdesk's result s6.de.mp4; not dubbed");
    expect(refused.refused[0]?.error.remedy).toContain('--again');
    const estimate = await api.estimate({ inputs: [elsewhere], to: ['fr'] });
    expect(estimate.jobs).toBe(0);
    const forced = await api.add({ inputs: [elsewhere], to: ['fr'], outDir: tempDir(), again: true });
    expect(forced.added).toHaveLength(1);
    await api.cancelJobs({ ids: forced.added });

    // On purpose: reprocess takes it, charged.
    await api.reprocessWatchFile({ id: folder.id, path: copy });
    await waitFor('the copy dubbed on purpose', () => jobsOf(api, folder.id), allCompleted(2));
  });
});
