import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeness } from '../../electron/engine/watcher/complete';
import { DEFAULT_WATCH_TIMING } from '../../electron/engine/watcher/env';
import { uncheckedQuietMs } from '../../electron/engine/watcher/settle';
import { tempDir } from '../helpers/temp-dir';
import { audioMp3, videoMov, videoMp4 } from '../helpers/media';

/** The first `bytes` of `file` under a new name: a copy stalled half-way. */
function cut(file: string, bytes: number): string {
  const path = join(tempDir(), `cut-${bytes}-${file.split('/').pop() ?? ''}`);
  writeFileSync(path, readFileSync(file).subarray(0, bytes));
  return path;
}

function wav(seconds: number): string {
  const path = join(tempDir(), 'tone.wav');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `sine=d=${seconds}`, path]);
  return path;
}

/** A short clip made by ffmpeg in `format` (to a seekable file, so its sizes are written at the end). */
function clip(name: string, args: string[]): string {
  const path = join(tempDir(), name);
  const source = ['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=5', '-f', 'lavfi', '-i', 'sine=d=3'];
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...source, '-t', '3', ...args, path]);
  return path;
}

describe('a file is whole when its container says so', () => {
  it.each([
    ['an MP4', () => videoMp4(4, 'whole.mp4')],
    ['a MOV', () => videoMov(2)],
    ['an MP3', () => audioMp3(3, 'whole.mp3')],
    ['a WAV', () => wav(2)],
    ['a Matroska (MKV)', () => clip('whole.mkv', ['-c:v', 'mpeg4', '-c:a', 'mp2'])],
    ['a WebM', () => clip('whole.webm', ['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus'])],
    ['an AVI', () => clip('whole.avi', ['-c:v', 'mpeg4', '-c:a', 'mp2'])],
  ])('%s written to the end is whole; the same cut anywhere is not', async (_what, make) => {
    const file = make();
    const size = readFileSync(file).length;
    expect(await completeness(file)).toEqual({ whole: true });
    for (const at of [Math.floor(size / 2) + 1, size - 1, 1000])
      expect(await completeness(cut(file, at)), `cut at ${at} of ${size}`).toMatchObject({ whole: false });
  });

  it('cannot tell from a Matroska segment of unknown size (a live recording), so it waits longer', async () => {
    const path = join(tempDir(), 'live.mkv');
    // Written to a pipe, ffmpeg cannot go back to fill in the segment's size: what live recorders leave.
    const bytes = execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x48:rate=5',
      '-t',
      '1',
      '-c:v',
      'mpeg4',
      '-f',
      'matroska',
      'pipe:1',
    ]);
    writeFileSync(path, bytes);
    expect(await completeness(path)).toEqual({ whole: 'unknown' });
  });

  it('cannot tell for formats it does not read (Ogg), so those wait longer instead', async () => {
    const path = clip('tone.ogg', ['-vn', '-c:a', 'libvorbis']);
    expect(await completeness(path)).toEqual({ whole: 'unknown' });
  });

  it('gives files it cannot check a quiet period a stalled network copy does not beat: a minute', () => {
    expect(uncheckedQuietMs(DEFAULT_WATCH_TIMING.settleMs)).toBeGreaterThanOrEqual(60_000);
  });

  it('does not hold back a file that is no media at all: the planner says what it is at once', async () => {
    const path = join(tempDir(), 'notes.mp4');
    writeFileSync(path, 'this is not a video\n');
    expect(await completeness(path)).toEqual({ whole: true });
  });

  it('says what a cut MP4 misses in words, sizes with thousands separators', async () => {
    const file = videoMp4(4, 'whole-words.mp4');
    const size = readFileSync(file).length;
    const r = await completeness(cut(file, size - 2000));
    expect(r).toMatchObject({ whole: false });
    const why = 'why' in r ? r.why : '';
    expect(why).toMatch(
      /^[\d.]+ KiB of its MP4 structure is still missing, \d{1,3}(,\d{3})+ of \d{1,3}(,\d{3})+ bytes written so far$/,
    );
    expect(why).not.toMatch(/boxes/);
  });
});
