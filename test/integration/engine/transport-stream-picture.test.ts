/**
 * A camcorder's `.mts` (H.264 and AC-3 in an MPEG transport stream) dubbed on the audio path: its video made
 * here carries the same pictures. The transport stream frames them with start codes and the MP4 with their
 * lengths, so the packets' md5 differs by that framing (docs/audio-path.md says so); the decoded pictures,
 * every one, are the same.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { ffmpegFixture, ffprobeJson } from '../../helpers/media';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.5, balance: 100_000 });
});
afterAll(() => sb.stop());

const decodedMd5 = (path: string) =>
  execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:v', '-f', 'md5', '-']).toString().trim();

describe('a camcorder .mts on the audio path', () => {
  it('keeps every picture: the decoded frames are the source’s, under one Spanish audio stream', async () => {
    const mts = ffmpegFixture(
      [
        ...['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=300:beep_factor=3'],
        ...['-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'ac3'],
        ...['-f', 'mpegts'],
      ],
      'camcorder-picture.mts',
    );
    const engine = engineFor(sb, tempDir('home'));
    try {
      const { added } = await engine.api.add({
        inputs: [mts],
        to: ['es'],
        outDir: tempDir('out'),
        send: 'audio',
      });
      await engine.run(quickRun(1));
      const job = await engine.api.getJob({ id: added[0] ?? 0 });
      expect(job.state, job.error?.message).toBe('completed');
      const video = job.outputs.find((o) => o.type === 'translated_mp4')?.path ?? '';
      expect(video).toMatch(/camcorder-picture\.es\.mp4$/);
      expect(decodedMd5(video)).toBe(decodedMd5(mts));
      const audio = ffprobeJson(video).streams.filter((s) => s.codec_type === 'audio');
      expect(audio.map((s) => s.tags?.language)).toEqual(['spa']);
    } finally {
      await engine.close();
    }
  }, 60_000);
});
