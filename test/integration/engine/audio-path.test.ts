/**
 * The audio path (issue 34) through the engine against the sandbox, with real ffmpeg: what a batch sends,
 * said before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { locateMediaTools } from '../../../electron/engine/media/ffmpeg/locate';
import { planSends } from '../../../electron/engine/app/batches/send-plan';
import { probeFile } from '../../../electron/engine/media/probe';
import { sendsWords } from '../../../shared/sends';
import { audioMp3, videoMov, videoMp4 } from '../../helpers/media';
import { engineFor, tempDir } from '../../helpers/engine';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
});
afterAll(() => sb.stop());

describe('what a batch sends', () => {
  it('estimates the sound alone for a video, the whole file for a sound, and the whole file when asked', async () => {
    const engine = engineFor(sb);
    try {
      const video = videoMp4(20, 'talk 20s.mp4');
      const mp3 = audioMp3(3, 'voice.mp3');
      const batch = { inputs: [video, mp3], to: ['es', 'fr'], outDir: tempDir('out') };
      const e = await engine.api.estimate(batch);
      const byName = new Map(e.files.map((f) => [f.name, f.sends]));
      expect(byName.get('talk 20s.mp4')).toMatchObject({ what: 'audio', why: null });
      const audioBytes = byName.get('talk 20s.mp4')?.bytes ?? 0;
      const videoBytes = e.files.find((f) => f.name === 'talk 20s.mp4')?.bytes ?? 0;
      expect(audioBytes).toBeGreaterThan(0);
      expect(audioBytes).toBeLessThan(videoBytes);
      expect(byName.get('voice.mp3')).toMatchObject({ what: 'file', why: null });
      const mp3Bytes = e.files.find((f) => f.name === 'voice.mp3')?.bytes ?? 0;
      // Two languages: each job sends its own copy.
      expect(e.sends).toEqual({
        bytes: 2 * (audioBytes + mp3Bytes),
        wholeBytes: 2 * (videoBytes + mp3Bytes),
        audioFiles: 1,
        notice: null,
      });
      expect(sendsWords(e.sends ?? { bytes: 0, wholeBytes: 0, audioFiles: 0 })).toMatch(
        /^sends [\d.]+ KB \(audio\) instead of [\d.]+ KB$/,
      );
      const whole = await engine.api.estimate({ ...batch, send: 'file' });
      expect(whole.sends).toMatchObject({ bytes: whole.sends?.wholeBytes, audioFiles: 0 });
    } finally {
      await engine.close();
    }
  });

  it('sends the whole file, and says so once, where no ffmpeg is found; a video without sound too', async () => {
    const dir = tempDir('no-tools');
    const files = [await probeFile(videoMp4(3, 'a.mp4')), await probeFile(videoMp4(3, 'b.mp4'))];
    const none = await planSends(
      files,
      { send: 'audio', api: 'v2' },
      locateMediaTools({ from: [dir], env: { PATH: dir } }),
    );
    expect([...none.bySource.values()].map((c) => c.what)).toEqual(['file', 'file']);
    expect(none.notice).toMatch(/^no ffmpeg found .*: the whole file is sent$/);
    const silent = await probeFile(videoMov(2));
    const plan = await planSends([silent], { send: 'audio', api: 'v2' });
    expect(plan.bySource.get(silent.path)).toMatchObject({ what: 'file', why: 'it has no sound to dub' });
    expect(plan.notice).toBeNull();
  });
});
