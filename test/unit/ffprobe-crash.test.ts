import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeStreams } from '../../electron/engine/media/ffmpeg/streams';
import { tempDir } from '../helpers/temp-dir';
import { shipped } from '../helpers/toolsets';

/** A camcorder's or a recorder's file: H.264 and AAC in MPEG-TS. */
function transportStream(name: string): string {
  const path = join(tempDir('mpegts-'), name);
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '2'],
    ...[
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-f',
      'mpegts',
      path,
    ],
  ]);
  return path;
}

/** An ffprobe that dies as the static builds do on MPEG-TS on some machines. */
function crashingFfprobe(): string {
  const path = join(tempDir('crashing-'), 'ffprobe');
  writeFileSync(path, '#!/bin/sh\nkill -SEGV $$\n');
  chmodSync(path, 0o755);
  return path;
}

const pathBefore = process.env.PATH;
afterEach(() => {
  process.env.PATH = pathBefore;
});

// Dubdesk ships a static ffprobe; the ones npm offers for Linux crash (SIGSEGV) on every MPEG-TS on some
// machines, this one among them, and a camcorder's .mts or a recorder's .ts could then be neither sent as
// its sound alone nor packaged.
describe('an ffprobe that crashes on a file', () => {
  it("the shipped ffprobe's reading of an MPEG-TS gives its streams, whatever this machine does to it", async () => {
    const streams = await probeStreams((await shipped()).ffprobe, transportStream('camcorder.mts'));
    expect(streams.video?.codec).toBe('h264');
    expect(streams.audio?.codec).toBe('aac');
  });

  it("is followed by the PATH's ffprobe", async () => {
    const streams = await probeStreams(crashingFfprobe(), transportStream('recording.ts'));
    expect(streams.video?.codec).toBe('h264');
  });

  it('with no other ffprobe, says which file, what happened and the two ways out', async () => {
    const source = transportStream('Vacances été.ts');
    process.env.PATH = tempDir('no-tools-');
    const read = probeStreams(crashingFfprobe(), source);
    await expect(read).rejects.toThrow(`ffprobe crashed reading ${source} (SIGSEGV)`);
    await expect(read).rejects.toThrow(/install ffmpeg so that its ffprobe is on the PATH/);
    await expect(read).rejects.toThrow(source.replace(/\.ts$/, '.mp4'));
  });
});
