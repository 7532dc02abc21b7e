/**
 * The contract suite's "Dub again": a finished job dubbed once more with its own choices, from its row in
 * the engine (no face rebuilds the request), priced first as the service bills it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { ffprobeJson, videoMp4 } from '../helpers/media';
import { tempDir } from '../helpers/temp-dir';
import { failsWith, HEARD, plain } from './checks';
import type { SuiteState } from './harness';

export function againTests(state: () => SuiteState): void {
  it('dubAgain: the same choices again, at the price estimateAgain said', async () => {
    const { api, h } = state();
    const outDir = tempDir('contract again ');
    const source = videoMp4(3, 'contract again é.mp4');
    // A batch of two languages whose package starts with the French sound: Spanish alone is dubbed again.
    const { added } = await api.add({
      inputs: [source],
      to: ['es', 'fr'],
      outDir,
      naming: 'folders',
      send: 'file',
      package: 'mkv',
      subtitles: ['srt'],
      loudness: 'web',
      defaultAudio: 'fr',
      outputs: ['translated_mp4', 'translated_subtitle'],
    });
    expect(await h.runUntilDone()).toBe('done');
    // What is made here (QC, the SubRip) may still be under way when the run returns.
    const delivered = (id: number) =>
      vi.waitFor(async () => {
        const job = await api.getJob({ id });
        expect(job.delivering).toBeFalsy();
        expect(job.qc).toBeTruthy();
        return job;
      }, HEARD);
    const jobs = await Promise.all(added.map(delivered));
    const spanish = jobs.find((j) => j.destLang === 'es');
    if (!spanish) throw new Error('no Spanish job');

    const estimate = await api.estimateAgain({ id: spanish.id });
    plain('estimateAgain', estimate);
    expect(estimate).toMatchObject({ jobs: 1, credits: spanish.creditsCharged, alreadyDone: [] });
    expect(estimate.files[0]?.sends?.what).toBe('file');

    const again = await api.dubAgain({ ids: [spanish.id] });
    plain('dubAgain', again);
    expect(again).toMatchObject({ credits: spanish.creditsCharged, alreadyDone: [], refused: [] });
    expect(again.added).toHaveLength(1);
    expect(await h.runUntilDone()).toBe('done');
    const redone = await delivered(again.added[0] ?? 0);
    expect(redone).toMatchObject({
      state: 'completed',
      destLang: 'es',
      send: 'file',
      outDir,
      outputsWanted: ['translated_mp4', 'translated_subtitle'],
      creditsCharged: spanish.creditsCharged,
    });
    // One folder per language, SubRip alone: as the batch asked.
    expect(redone.outputs.map((o) => o.path)).toContain(join(outDir, 'es', 'contract again é.srt'));
    expect(existsSync(join(outDir, 'es', 'contract again é.srt'))).toBe(true);
    expect(redone.outputs.some((o) => o.path.endsWith('.vtt'))).toBe(false);
    // The package is made again with the new Spanish, the French sound still its default.
    await vi.waitFor(async () => {
      const { sources } = await api.listSources({ offset: 0, limit: 50 });
      const row = sources.find((s) => s.source === source);
      expect(row?.package).toMatchObject({ state: 'done' });
      expect(row?.package?.languages.toSorted()).toEqual(['es', 'fr']);
      expect(Date.parse(row?.package?.updatedAt ?? '')).toBeGreaterThan(Date.parse(redone.createdAt));
    }, HEARD);
    const sounds = ffprobeJson(join(outDir, 'multi', 'contract again é.mkv')).streams.filter(
      (s) => s.codec_type === 'audio',
    );
    const first = sounds.filter((s) => (s as { disposition?: { default?: number } }).disposition?.default);
    expect(first.map((s) => s.tags?.language)).toEqual(['fre']);
  });

  it('dubAgain and estimateAgain refuse an unknown job and an empty list', async () => {
    const { api } = state();
    expect((await failsWith('not-found', () => api.dubAgain({ ids: [987_654] }))).message).toMatch(
      /no job 987654/,
    );
    await failsWith('not-found', () => api.estimateAgain({ id: 987_654 }));
    expect((await failsWith('bad-request', () => api.dubAgain({ ids: [] }))).field).toBe('ids');
  });
}
