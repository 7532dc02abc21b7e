/**
 * A source joined from pieces without re-encoding (`ffmpeg -f concat -c copy`, a recorder's or a camera's
 * segments, an editor's "smart render"): each AAC piece brings its encoder's delay, so the joined sound
 * holds more samples than its timeline. Twenty 1-minute pieces made a 20-minute video whose sound decodes
 * 0.62 s long: sent as decoded, the dub came back 0.62 s longer than the picture and drifted from it. What
 * is sent follows the source's timestamps, as its picture does.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractAudio } from '../../electron/engine/media/ffmpeg/extract';
import { probeStreams } from '../../electron/engine/media/ffmpeg/streams';
import { videoMp3Sound, videoMp4 } from '../helpers/media';
import { tempDir } from '../helpers/temp-dir';
import { TOOLSETS } from '../helpers/toolsets';

const PIECES = 8;

/** PIECES copies of a 2-second video joined by stream copy, and the same with its sound as FLAC in MKV. */
function joinedSources(): { aac: string; flac: string } {
  const dir = tempDir('joined-');
  const piece = videoMp4(2, 'joined-piece.mp4');
  const list = join(dir, 'list.txt');
  writeFileSync(list, `file '${piece}'\n`.repeat(PIECES));
  const aac = join(dir, 'joined pieces.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', aac]);
  const flac = join(dir, 'joined pieces.mkv');
  execFileSync('ffmpeg', ['-v', 'error', '-i', aac, '-c:v', 'copy', '-c:a', 'flac', flac]);
  return { aac, flac };
}

/** Seconds of sound the file decodes to: its samples, whatever its timestamps say. */
function decodedSeconds(path: string): number {
  const pcm = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-map', '0:a:0', '-ac', '1', '-ar', '48000', '-f', 's16le', '-'],
    {
      maxBuffer: 1 << 28,
    },
  );
  return pcm.length / 2 / 48_000;
}

describe.each(TOOLSETS)('the sound of a source joined from pieces, with %s', (_name, toolset) => {
  const sources = joinedSources();

  it.each([
    ['AAC, copied as it is', sources.aac],
    ['FLAC, encoded to AAC', sources.flac],
  ])(
    '%s: is sent as long as the source plays, not with every piece’s extra samples',
    async (_how, source) => {
      const tools = await toolset();
      const streams = await probeStreams(tools.ffprobe, source);
      const timeline = streams.durationSeconds ?? 0;
      // The world this test builds: the joined sound decodes longer than the video plays.
      expect(decodedSeconds(source) - timeline).toBeGreaterThan(0.1);
      const sent = await extractAudio(tools, source, streams, 'v2', join(tempDir('sent-'), 'sound'), null);
      expect(Math.abs(decodedSeconds(sent.path) - timeline)).toBeLessThan(0.03);
    },
  );

  it.each([
    ['AAC', () => videoMp4(30, 'one piece.mp4')],
    ['MP3', () => videoMp3Sound(30, 'one piece mp3.mp4')],
  ])('a file of one piece (%s) is still sent as it is, with its own encoder delay', async (_codec, made) => {
    const tools = await toolset();
    const source = made();
    const streams = await probeStreams(tools.ffprobe, source);
    const sent = await extractAudio(tools, source, streams, 'v2', join(tempDir('sent-'), 'sound'), null);
    expect(sent.plan.copy).toBe(true);
  });
});
