/**
 * The contract suite's audio track choice (`audioTrack`): the same option, checked by the same schema, on
 * every transport; the source's tracks listed by the estimate; the track found stored on the job; bad input
 * and a track the file lacks refused in words; a watched folder's preset holding it.
 */
import { expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir';
import { trackMd5, videoWithTracks } from '../helpers/track-media';
import { failsWith, plain } from './checks';
import type { SuiteState } from './harness';

export function trackTests(state: () => SuiteState): void {
  const source = () => videoWithTracks('contract three tracks.mp4');

  it('estimate lists the tracks; add dubs the one chosen by language, stored on the job by its number', async () => {
    const { api, h, sb } = state();
    const outDir = tempDir('contract tracks ');
    const batch = { inputs: [source()], to: ['es'], outDir, send: 'audio' as const, audioTrack: 'fra' };
    const estimate = await api.estimate(batch);
    plain('estimate', estimate);
    expect(estimate.files[0]?.audioTracks).toEqual([
      { number: 1, language: 'eng', title: 'Main mix', channels: 2, codec: 'aac' },
      { number: 2, language: 'fre', title: 'Version française', channels: 2, codec: 'aac' },
      { number: 3, language: 'eng', title: 'Commentary', channels: 1, codec: 'aac' },
    ]);
    expect(estimate.files[0]?.sends?.what).toBe('audio');
    // The French track lasts 4 s of the file's 6.
    expect(estimate.files[0]?.durationSeconds).toBeCloseTo(4, 1);

    const { added } = await api.add(batch);
    expect(await h.runUntilDone()).toBe('done');
    const job = await api.getJob({ id: added[0] ?? 0 });
    expect(job).toMatchObject({ state: 'completed', audioTrack: '2', send: 'audio' });
    const upload = sb.state.dubs.get(job.remoteId ?? '')?.uploadPath ?? '';
    expect(trackMd5(upload, 1)).toBe(trackMd5(source(), 2));

    // The same track by number: already dubbed.
    const again = await api.estimate({ ...batch, audioTrack: '2' });
    expect(again).toMatchObject({ jobs: 0, credits: 0 });
    expect(again.alreadyDone.map((d) => d.jobId)).toEqual([job.id]);
  });

  it('refuses a track number 0 or a word as bad input, and a track the file lacks in words', async () => {
    const { api } = state();
    for (const audioTrack of ['0', 'xx']) {
      const e = await failsWith('bad-request', () =>
        api.estimate({ inputs: [source()], to: ['es'], audioTrack }),
      );
      expect(e.field).toBe('audioTrack');
      expect(e.message).toMatch(audioTrack === '0' ? /counted from 1/ : /is not an audio track/);
    }
    const r = await api.add({ inputs: [source()], to: ['es'], send: 'audio', audioTrack: '5' });
    plain('add', r);
    expect(r.added).toEqual([]);
    expect(r.refused[0]?.error.message).toContain(
      'has no audio track 5: its audio tracks are 1 (eng, Main mix, stereo), 2 (fre, Version française, stereo), 3 (eng, Commentary, mono)',
    );
  });

  it("a watched folder's preset keeps the track, and changing it is a new preset version", async () => {
    const { api } = state();
    const folder = await api.addWatchFolder({
      path: tempDir('dubdesk-contract-track-watch-'),
      preset: { to: ['es'], audioTrack: 'eng' },
    });
    expect(folder.preset.audioTrack).toBe('eng');
    const changed = await api.updateWatchFolder({ id: folder.id, preset: { audioTrack: '3' } });
    plain('updateWatchFolder', changed);
    expect(changed).toMatchObject({ presetVersion: folder.presetVersion + 1, preset: { audioTrack: '3' } });
    await failsWith('bad-request', () =>
      api.updateWatchFolder({ id: folder.id, preset: { audioTrack: '0' } }),
    );
    await api.removeWatchFolder({ id: folder.id });
  });
}
