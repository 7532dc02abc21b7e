import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { mp4MovieDuration } from '../../electron/engine/media/mp4-duration';
import { probeFile } from '../../electron/engine/media/probe';
import { audioMp3, textFile, videoMov, videoMp4 } from '../helpers/media';

const ffprobe = (p: string) =>
  Number(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      p,
    ]).toString(),
  );

describe('media probe', () => {
  it('reads the movie duration of MP4 and MOV headers exactly as ffprobe measures it', async () => {
    for (const file of [videoMp4(3), videoMp4(7, 'seven.mp4'), videoMov(2)]) {
      expect(await mp4MovieDuration(file)).toBeCloseTo(ffprobe(file), 2);
    }
  });

  it('finds the real type from the bytes, not the extension', async () => {
    expect(await probeFile(videoMp4(3))).toMatchObject({ mime: 'video/mp4', kind: 'video' });
    expect(await probeFile(videoMov(2))).toMatchObject({ mime: 'video/quicktime', kind: 'video' });
    const mp3 = await probeFile(audioMp3(2.5));
    expect(mp3).toMatchObject({ mime: 'audio/mpeg', kind: 'audio' });
    expect(mp3.durationSeconds).toBeCloseTo(ffprobe(audioMp3(2.5)), 1);
    await expect(probeFile(textFile('fake.mp4'))).rejects.toThrow(/not a video or audio file/);
  });
});
