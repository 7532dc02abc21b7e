import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
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

/** A tone-and-pattern video muxed by the ffmpeg given these input and output arguments, at about -23 LUFS. */
function talkMadeWith(name: string, inputs: string[], outputs: string[]): string {
  const path = join(tempDir('talk-odd-'), name);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    ...inputs,
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...outputs,
    path,
  ]);
  return path;
}

/** A video whose sound stops before its picture: `pictureSeconds` of picture, `soundSeconds` of sound. */
export function soundEndsEarly(pictureSeconds: number, soundSeconds: number, name: string): string {
  return talkMadeWith(
    name,
    ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ['-t', String(pictureSeconds), '-af', `atrim=end=${soundSeconds},volume=-1.2dB`],
  );
}

/**
 * An MP4 whose chapters run past its streams: `seconds` of picture and sound, a chapter track (and so the
 * container's duration) of `chaptersSeconds`, as some editors export.
 */
export function chaptersPastEnd(seconds: number, chaptersSeconds: number, name: string): string {
  const dir = tempDir('chapters-');
  const chapters = join(dir, 'chapters.txt');
  const half = Math.round((chaptersSeconds * 1000) / 2);
  writeFileSync(
    chapters,
    `;FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=${half}\ntitle=One\n` +
      `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${half}\nEND=${chaptersSeconds * 1000}\ntitle=Two\n`,
  );
  const t = String(seconds);
  return talkMadeWith(
    name,
    [
      ...['-t', t, '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10'],
      ...['-t', t, '-f', 'lavfi', '-i', 'sine=frequency=440', '-i', chapters],
    ],
    ['-map', '0', '-map', '1', '-map_chapters', '2', '-af', 'volume=-1.2dB'],
  );
}

/**
 * A talk with real speech: flite's voice reading sentences with pauses between them, over the quiet of a
 * room, about -23 LUFS, under a test pattern (H.264 and AAC, as a camera or an editor exports).
 */
export function speechVideo(seconds: number, name: string): string {
  const dir = tempDir('speech-');
  const text = join(dir, 'talk.txt');
  writeFileSync(
    text,
    'Good morning, and welcome to the talk. Today we look at the results of the year. '.repeat(
      Math.ceil(seconds / 2),
    ),
  );
  const path = join(dir, name);
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25'],
    ...['-f', 'lavfi', '-i', `flite=textfile=${text}:voice=slt`],
    ...['-f', 'lavfi', '-i', 'anoisesrc=a=0.004:c=pink:r=48000'],
    '-filter_complex',
    '[1]aresample=48000,volume=-6.5dB[v];[v][2]amix=inputs=2:duration=first:normalize=0,' +
      'aformat=channel_layouts=stereo[a]',
    ...['-map', '0:v', '-map', '[a]', '-t', String(seconds)],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '160k'],
    path,
  ]);
  return path;
}

const Ebur128Summary = z.object({ integrated: z.coerce.number(), truePeak: z.coerce.number() });

/**
 * EBU R128 as a user types it over a file's sound: `ffmpeg -i FILE -map 0:a -af ebur128=peak=true -f null -`
 * (the system's ffmpeg), its summary's integrated loudness (LUFS) and true peak (dBTP).
 */
export function ebur128Measure(path: string): { integrated: number; truePeak: number } {
  const run = spawnSync(
    'ffmpeg',
    ['-hide_banner', '-nostats', '-i', path, '-map', '0:a', '-af', 'ebur128=peak=true', '-f', 'null', '-'],
    { encoding: 'utf8' },
  );
  const summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1];
  const truePeak = /True peak:\s+Peak:\s+(-?[\d.]+) dBFS/.exec(summary)?.[1];
  if (run.status !== 0 || integrated === undefined || truePeak === undefined)
    throw new Error(`ebur128 did not measure ${path}: ${run.stderr.slice(-500)}`);
  return Ebur128Summary.parse({ integrated, truePeak });
}
