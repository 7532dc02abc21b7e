import { execFileSync } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFile } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { mp3Duration, wavDuration } from '../../electron/engine/media/header-duration';
import { mp4MovieDuration } from '../../electron/engine/media/mp4-duration';
import { probeFile } from '../../electron/engine/media/probe';
import { tempDir } from '../helpers/temp-dir';
import { audioMp3, lyingMp4, textFile, videoMov, videoMp4 } from '../helpers/media';

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

async function movieDuration(file: string): Promise<number | null> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    return await mp4MovieDuration(async (pos, len) => {
      const b = Buffer.alloc(len);
      const { bytesRead } = await fh.read(b, 0, len, pos);
      return b.subarray(0, bytesRead);
    }, size);
  } finally {
    await fh.close();
  }
}

const dir = tempDir('dubdesk-media-');
function made(name: string, args: string[]): string {
  const p = join(dir, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, p]);
  return p;
}
const tone = (s: number) => ['-f', 'lavfi', '-i', `sine=frequency=330`, '-t', String(s)];

describe('media probe', () => {
  it('reads the movie duration of MP4 and MOV headers exactly as ffprobe measures it', async () => {
    for (const file of [videoMp4(3), videoMp4(7, 'seven.mp4'), videoMov(2)]) {
      expect(await movieDuration(file)).toBeCloseTo(ffprobe(file), 2);
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

  it('MP3 (CBR, VBR, mono, MPEG-2, ID3-tagged) and WAV lengths from the header equal the full parser', async () => {
    const mp3s = [
      made('cbr.mp3', [...tone(2.5), '-c:a', 'libmp3lame', '-b:a', '128k']),
      made('vbr.mp3', [...tone(4), '-c:a', 'libmp3lame', '-q:a', '4']),
      made('mono22.mp3', [...tone(3), '-ac', '1', '-ar', '22050', '-c:a', 'libmp3lame']),
      made('tagged.mp3', [...tone(2), '-metadata', 'title=A song', '-c:a', 'libmp3lame']),
    ];
    for (const f of mp3s) {
      const full = (await parseFile(f, { duration: true })).format.duration;
      expect(mp3Duration(await readFile(f)), f).toBe(full);
      expect((await probeFile(f)).durationSeconds).toBe(full);
    }
    for (const f of [made('a.wav', tone(2.2)), made('s.wav', [...tone(1.5), '-ac', '2', '-ar', '48000'])]) {
      const full = (await parseFile(f, { duration: true })).format.duration;
      expect(wavDuration(await readFile(f)), f).toBeCloseTo(full ?? 0, 6);
      expect((await probeFile(f)).mime).toBe('audio/wav');
    }
    // Without a frame count in its header an MP3 is left to the full parser.
    const bare = Buffer.from(await readFile(mp3s[0] ?? ''));
    bare.write('Nope', bare.indexOf('Info') === -1 ? bare.indexOf('Xing') : bare.indexOf('Info'), 'latin1');
    expect(mp3Duration(bare)).toBeNull();
    const m4a = await probeFile(made('a.m4a', [...tone(2), '-c:a', 'aac']));
    expect(m4a).toMatchObject({ kind: 'audio' });
    expect(m4a.durationSeconds).toBeCloseTo(2, 1);
  });
});

describe('an MP4 whose movie header says less than it holds', () => {
  it('is measured by its longest track; one that is honest keeps its movie header', async () => {
    const lying = await probeFile(lyingMp4(6, 'mvhd-says-1s.mp4', ['mvhd']));
    expect(lying.durationSeconds).toBeGreaterThanOrEqual(6);
    expect(lying.durationSeconds).toBeLessThan(6.1);
    const honest = await probeFile(videoMp4(6, 'honest-6s.mp4'));
    expect(honest.durationSeconds).toBe(6);
  });
});
