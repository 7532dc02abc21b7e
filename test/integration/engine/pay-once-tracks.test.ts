/**
 * The first audio track has four spellings: none (`first`, what every job before tracks dubbed), `1`, its
 * language (`eng`), and a copy of the file under another name chosen by its language. All name one dub,
 * charged once.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { videoWithTracks } from '../../helpers/track-media';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('the first audio track, however it is named', () => {
  it('`first`, `1`, `eng` and a copy chosen by `eng` are one dub, one charge', async () => {
    const sb = await startSandbox({ pipelineSeconds: 0.3, balance: 10_000 });
    cleanup.push(() => sb.stop());
    const dir = tempDir();
    const source = join(dir, 'Film.mp4');
    copyFileSync(videoWithTracks('pay-once-tracks.mp4'), source);
    const host = engineFor(sb);
    cleanup.push(() => host.close());
    const batch = { inputs: [source], to: ['es'], send: 'audio' as const, outDir: tempDir() };
    expect((await host.api.add(batch)).added).toHaveLength(1);
    expect(await host.run(quickRun(2))).toBe('done');
    expect(startedDubs(sb)).toHaveLength(1);

    for (const audioTrack of ['first', '1', 'eng', '01']) {
      const again = await host.api.add({ ...batch, audioTrack });
      expect(again.added, audioTrack).toEqual([]);
      expect(again.alreadyDone, audioTrack).toHaveLength(1);
    }
    const copy = join(dir, 'Film (copy).mp4');
    copyFileSync(source, copy);
    await host.api.add({ ...batch, inputs: [copy], audioTrack: 'eng' });
    expect(await host.run(quickRun(2))).toBe('done');
    expect(startedDubs(sb)).toHaveLength(1);
    expect(sb.state.ledger).toHaveLength(1);
  });
});
