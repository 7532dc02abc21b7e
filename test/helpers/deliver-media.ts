import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { tempDir } from './temp-dir';
import { videoMp4 } from './media';

/**
 * A talk's stand-in: a test pattern over a tone at about -23 LUFS (EBU R128's broadcast target), so a
 * good dub of it (the sandbox's dub is its own sound) passes QC.
 */
export function talkVideo(seconds: number, name = `talk-${seconds}s.mp4`): string {
  const made = videoMp4(seconds, `tone-${seconds}s-${name}`);
  const dir = tempDir('talk-');
  const path = join(dir, name);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    made,
    '-c:v',
    'copy',
    '-af',
    'volume=-1.2dB',
    '-c:a',
    'aac',
    path,
  ]);
  return path;
}

/** `src` with its sound run through `filter` (the picture copied), into a file of its own. */
export function withAudioFilter(src: string, filter: string, name: string): string {
  const path = join(tempDir('filtered-'), name);
  const mp3 = name.endsWith('.mp3');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    src,
    ...(mp3 ? ['-vn', '-c:a', 'libmp3lame'] : ['-c:v', 'copy', '-c:a', 'aac']),
    '-af',
    filter,
    path,
  ]);
  return path;
}

/** A copy of `src` under another name, in a folder of its own. */
export function copyAs(src: string, name: string): string {
  const path = join(tempDir('copy-'), name);
  copyFileSync(src, path);
  return path;
}

const LoudnormJson = z.object({ input_i: z.coerce.number(), input_tp: z.coerce.number() });

/**
 * An independent EBU R128 measurement: ffmpeg's loudnorm filter, whose meter is libebur128's code (not the
 * ebur128 filter's), read from the JSON it prints.
 */
export function loudnormMeasure(path: string): { integrated: number; truePeak: number } {
  const run = spawnSync(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostats',
      '-i',
      path,
      '-map',
      '0:a:0',
      '-af',
      'loudnorm=print_format=json',
      '-f',
      'null',
      '-',
    ],
    { encoding: 'utf8' },
  );
  const json = /\{[^{}]*"input_i"[^{}]*\}/.exec(run.stderr)?.[0];
  if (run.status !== 0 || !json)
    throw new Error(`loudnorm did not measure ${path}: ${run.stderr.slice(-500)}`);
  const m = LoudnormJson.parse(JSON.parse(json));
  return { integrated: m.input_i, truePeak: m.input_tp };
}
