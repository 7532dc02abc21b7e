/**
 * The length of a video that its header does not say (a camcorder's MPEG-TS, an AVI, an MPEG-PS) is read
 * with ffprobe under a timeout: the one shipped with Dubdesk, so that a machine without ffmpeg on its PATH
 * (the desktop app started from Finder or the Start menu has none) takes them, then the PATH's.
 */
import { mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { ffmpegFixture } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, balance: 100_000 });
});
afterAll(() => sb.stop());

const PICTURE = [
  '-f',
  'lavfi',
  '-i',
  'testsrc=size=160x120:rate=10',
  '-f',
  'lavfi',
  '-i',
  'sine=frequency=440',
];

const camcorder = () =>
  ffmpegFixture(
    [...PICTURE, '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-f', 'mpegts'],
    'camcorder.mts',
  );

describe('the length of a video its header does not say', () => {
  it('with no ffmpeg on the PATH, only the shipped one: an AVI and an MPEG-PS are read and dubbed', async () => {
    const avi = ffmpegFixture([...PICTURE, '-t', '3', '-c:v', 'mpeg4', '-c:a', 'libmp3lame'], 'old.avi');
    const mpg = ffmpegFixture([...PICTURE, '-t', '3', '-c:v', 'mpeg2video', '-c:a', 'mp2'], 'dvd.mpg');
    const work = tempDir('dubdesk-shipped-');
    const emptyPath = join(work, 'bin');
    mkdirSync(emptyPath);
    const out = join(work, 'out');
    const r = await runCli(['dub', avi, mpg, '--to', 'es', '--out', out, '--poll-interval', '0.2'], {
      ...envFor(sb, join(work, 'home')),
      PATH: emptyPath,
    });
    expect(r.stderr).not.toMatch(/cannot read its duration/);
    expect(r.code).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['dvd.es.mp4', 'dvd.es.vtt', 'old.es.mp4', 'old.es.vtt']);
  });

  it('a camcorder MPEG-TS, which the shipped ffprobe cannot read on every machine, is read by the one on the PATH', async () => {
    const work = tempDir('dubdesk-mts-');
    const r = await runCli(['add', camcorder(), '--to', 'es', '--json'], envFor(sb, join(work, 'home')));
    expect(r.stderr).not.toMatch(/cannot read its duration/);
    expect(r.code).toBe(0);
  });
});
