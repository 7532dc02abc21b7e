import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishFixture, writeFixture } from './fixture-file';

/**
 * Media made with ffmpeg at test time (not committed). Under `npm test` the run's temporary root
 * (test/temp-root.ts) holds one cache that every test process shares, so a fixture is encoded once a run,
 * not once a file; elsewhere (benchmarks, chaos) a folder of this process's own, removed when it exits.
 */
const shared = process.env.DUBDESK_TEST_FIXTURES;
const dir = shared ?? join(tmpdir(), `dubdesk-fixtures-${process.pid}`);
if (!shared) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

/** A folder of its own for each way of making a file: the same name made two ways is two fixtures. */
function folderFor(...how: unknown[]): string {
  const made = join(dir, createHash('sha256').update(JSON.stringify(how)).digest('hex').slice(0, 16));
  mkdirSync(made, { recursive: true });
  return made;
}

/** Made by the system's ffmpeg with these arguments, once a run (exported as `ffmpegFixture`). */
function ffmpeg(args: string[], out: string): string {
  const made = folderFor(args, out);
  const path = join(made, out);
  if (!existsSync(path)) {
    // Written aside, then put in place: a test process never sees another's half-written fixture, nor its
    // own replaced by another's (see fixture-file.ts).
    const part = join(made, `.${process.pid}.${out}`);
    // Its name in its metadata: two fixtures are two different files, as two of a user's videos are (a source
    // is its content; a test that means a copy copies one).
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, '-metadata', `comment=${out}`, part]);
    publishFixture(part, path);
  }
  return path;
}

/** A test pattern as H.264, the part every video fixture shares. */
const PATTERN = ['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10'];
const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/** A 3-second 160x120 H.264/AAC MP4 with a tone. */
export function videoMp4(seconds = 3, name = `video-${seconds}s.mp4`): string {
  const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440'];
  return ffmpeg([...PATTERN, ...tone, '-t', String(seconds), ...H264, '-c:a', 'aac', '-shortest'], name);
}

/**
 * A video of noise, which no encoder shrinks (about 6 MB a second): its upload takes long enough on a shaped
 * link to be seen after the machine's socket buffers have swallowed their share.
 */
export function noisyVideoMp4(seconds: number, name: string): string {
  const pattern = ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25'];
  const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440'];
  const noisy = ['-vf', 'noise=alls=60:allf=t', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '10'];
  const rest = ['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'];
  return ffmpeg([...pattern, ...tone, '-t', String(seconds), ...noisy, ...rest], name);
}

/** Matroska (`.mkv`) or WebM, for the watcher's completeness checks. */
export function videoMatroska(seconds: number, name: string): string {
  const codecs = name.endsWith('.webm')
    ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus']
    : ['-c:v', 'mpeg4', '-c:a', 'mp2'];
  const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440'];
  return ffmpeg([...PATTERN, ...tone, '-t', String(seconds), ...codecs, '-shortest'], name);
}

export function videoMov(seconds = 2): string {
  return ffmpeg([...PATTERN, '-t', String(seconds), ...H264], `video-${seconds}s.mov`);
}

/** An MP3 tone, 2.5 seconds by default. */
export function audioMp3(seconds = 2.5, name = `audio-${seconds}s.mp3`): string {
  return ffmpeg(
    ['-f', 'lavfi', '-i', 'sine=frequency=300', '-t', String(seconds), '-c:a', 'libmp3lame', '-b:a', '64k'],
    name,
  );
}

export function textFile(name = 'notes.mp4', text = 'this is not a video\n'): string {
  const path = join(folderFor('text', name, text), name);
  writeFixture(path, text);
  return path;
}

export function emptyFile(name = 'empty.mp4'): string {
  return textFile(name, '');
}

/** Chapters for `videoWithChapters`: two, split at the middle. */
function chaptersFile(seconds: number): string {
  const half = Math.round((seconds * 1000) / 2);
  const text =
    `;FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=${half}\ntitle=First half\n` +
    `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${half}\nEND=${Math.round(seconds * 1000)}\ntitle=Second half\n`;
  const path = join(folderFor('chapters', seconds), 'chapters.txt');
  writeFixture(path, text);
  return path;
}

/** The duration boxes of an MP4 a file can lie in: the movie's, each track's, each track's media. */
export type DurationBox = 'mvhd' | 'tkhd' | 'mdhd';

/**
 * A real `seconds`-long MP4 whose `boxes` claim it lasts 1 second (a byte patch of their duration fields,
 * nothing else changed): what an estimate that believes the header would take for a 1-credit file.
 */
export function lyingMp4(seconds: number, name: string, boxes: readonly DurationBox[]): string {
  const made = folderFor('lying', seconds, name, boxes);
  const path = join(made, name);
  if (existsSync(path)) return path;
  const bytes = readFileSync(videoMp4(seconds, `${name}.real.mp4`));
  let movieScale = 1000;
  const walk = (start: number, end: number) => {
    for (let p = start; p + 8 <= end;) {
      let size = bytes.readUInt32BE(p);
      const type = bytes.toString('latin1', p + 4, p + 8);
      let head = 8;
      if (size === 1) [size, head] = [Number(bytes.readBigUInt64BE(p + 8)), 16];
      else if (size === 0) size = end - p;
      const body = p + head;
      const v1 = bytes.readUInt8(body) === 1;
      // Version 0 fields are 32-bit, version 1 fields 64-bit; the timescale comes just before the duration.
      const at = { mvhd: v1 ? 20 : 12, tkhd: v1 ? 28 : 20, mdhd: v1 ? 20 : 12 }[type as DurationBox];
      if (type === 'mvhd') movieScale = bytes.readUInt32BE(body + at);
      if (at !== undefined && boxes.includes(type as DurationBox)) {
        // tkhd counts in the movie's timescale; mvhd and mdhd carry their own.
        const scale = type === 'tkhd' ? movieScale : bytes.readUInt32BE(body + at);
        const field = type === 'tkhd' ? body + at : body + at + 4;
        if (v1) bytes.writeBigUInt64BE(BigInt(scale), field);
        else bytes.writeUInt32BE(scale, field);
      }
      if (['moov', 'trak', 'mdia'].includes(type)) walk(body, p + size);
      p += size;
    }
  };
  walk(0, bytes.length);
  const part = join(made, `.${process.pid}.${name}`);
  writeFileSync(part, bytes);
  publishFixture(part, path);
  return path;
}

/**
 * A phone's recording: H.264/AAC, shot turned (a 90° display matrix), with two chapters. The rotation is
 * written by ffmpeg's `rotate` tag, which the ffmpeg given (`DUBDESK_TEST_ROTATING_FFMPEG`, else the one
 * shipped with Dubdesk) turns into the display matrix.
 */
export function videoTurnedWithChapters(seconds: number, name: string, rotating: string): string {
  const chapters = chaptersFile(seconds);
  const made = folderFor('turned', seconds, name, rotating);
  const path = join(made, name);
  if (!existsSync(path)) {
    const plain = videoMp4(seconds, `plain-${name}`);
    const part = join(made, `.${process.pid}.${name}`);
    execFileSync(rotating, [
      '-v',
      'error',
      '-y',
      '-i',
      plain,
      '-i',
      chapters,
      '-map',
      '0',
      '-map_metadata',
      '1',
      '-map_chapters',
      '1',
      '-c',
      'copy',
      '-metadata:s:v:0',
      'rotate=90',
      '-f',
      'mp4',
      part,
    ]);
    publishFixture(part, path);
  }
  return path;
}

/** An MP3 tone of exactly this length: a stand-in for a dubbed soundtrack longer or shorter than its video. */
export function dubbedMp3(seconds: number): string {
  return audioMp3(seconds, `dubbed-${seconds}s.mp3`);
}

/** A video whose sound is neither AAC nor MP3 (WebM: VP8 and Opus), for the intermediate. */
export function videoWebm(seconds: number, name = `video-${seconds}s.webm`): string {
  return videoMatroska(seconds, name);
}

/** A video with an MP3 soundtrack in an MP4 (as old cameras and screen recorders write). */
export function videoMp3Sound(seconds: number, name = `video-mp3-${seconds}s.mp4`): string {
  const tone = ['-f', 'lavfi', '-i', 'sine=frequency=500'];
  return ffmpeg(
    [...PATTERN, ...tone, '-t', String(seconds), ...H264, '-c:a', 'libmp3lame', '-shortest'],
    name,
  );
}

/** The sound codecs a source may carry, each in a container that holds it, at 48 kHz (a camera's rate). */
const SOUNDS = {
  aac: { ext: 'mp4', args: ['-c:a', 'aac'] },
  mp3: { ext: 'mp4', args: ['-c:a', 'libmp3lame'] },
  opus: { ext: 'mp4', args: ['-c:a', 'libopus'] },
  pcm: { ext: 'mov', args: ['-c:a', 'pcm_s16le'] },
} as const;
export type SoundCodec = keyof typeof SOUNDS;

/** A `seconds`-long video whose sound is `codec` (AAC, MP3, Opus in an MP4; PCM in a MOV). */
export function videoSounding(codec: SoundCodec, seconds: number, stem: string): string {
  const { ext, args } = SOUNDS[codec];
  const tone = ['-f', 'lavfi', '-i', 'sine=frequency=500:sample_rate=48000'];
  return ffmpeg(
    [...PATTERN, ...tone, '-t', String(seconds), ...H264, ...args, '-shortest'],
    `${stem}.${ext}`,
  );
}

/**
 * A `seconds`-long H.264/AAC MP4 whose chapters run on to `chaptersEnd`: ffmpeg writes them as a text track
 * of that length, so the movie header (and ffprobe) say the file lasts `chaptersEnd`.
 */
export function videoChaptersPastEnd(seconds: number, chaptersEnd: number, name: string): string {
  const made = folderFor('chapters-past-end', seconds, chaptersEnd, name);
  const path = join(made, name);
  if (existsSync(path)) return path;
  const ms = (s: number) => Math.round(s * 1000);
  const chapters = join(made, 'chapters.txt');
  writeFixture(
    chapters,
    `;FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=${ms(seconds)}\ntitle=The talk\n` +
      `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${ms(seconds)}\nEND=${ms(chaptersEnd)}\ntitle=Credits\n`,
  );
  const part = join(made, `.${process.pid}.${name}`);
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y', '-i', videoMp4(seconds, `plain-${name}`), '-i', chapters],
    ...['-map', '0', '-map_chapters', '1', '-c', 'copy', '-f', 'mp4', part],
  ]);
  publishFixture(part, path);
  return path;
}

/** The MD5 of a file's video packets, as the check reads it (`-map 0:v -c copy -f md5 -`). */
export function videoMd5(path: string): string {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:v', '-c', 'copy', '-f', 'md5', '-'])
    .toString()
    .trim();
}

/** The MD5 of a file's first audio stream's packets. */
export function audioMd5(path: string): string {
  return execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-map', '0:a:0', '-c', 'copy', '-f', 'md5', '-'])
    .toString()
    .trim();
}

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
}

/** What ffprobe (the system's) says of a file's streams, chapters and length. */
export function ffprobeJson(path: string): {
  streams: ProbedStream[];
  chapters: unknown[];
  format: { duration: string; format_name: string };
} {
  return JSON.parse(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_streams',
      '-show_chapters',
      '-show_format',
      '-of',
      'json',
      path,
    ]).toString(),
  ) as ReturnType<typeof ffprobeJson>;
}

/**
 * A real `seconds`-long WebM that does not say how long it is, as a browser's recorder or any writer
 * through a pipe leaves it: no duration in its header, none per stream, no index (ffprobe says N/A).
 */
export function lengthlessWebm(seconds: number, name: string): string {
  const made = folderFor('lengthless', seconds, name);
  const path = join(made, name);
  if (existsSync(path)) return path;
  // The sources end by themselves: a length given as an output option would be written in the header.
  const args = [
    ...['-f', 'lavfi', '-i', `testsrc=size=160x120:rate=10:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
    ...['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus'],
    ...['-metadata', `comment=${name}`],
  ];
  // Through a pipe, the muxer cannot go back to write the length: exactly what makes such files.
  const bytes = execFileSync('ffmpeg', ['-v', 'error', ...args, '-f', 'webm', 'pipe:1'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const part = join(made, `.${process.pid}.${name}`);
  writeFileSync(part, bytes);
  publishFixture(part, path);
  return path;
}

/**
 * A dubbed soundtrack as the service sends one: a voice (flite's) over a quiet room and a low hum, 48 kHz
 * stereo, as an MP3 at 128 kbit/s; `wav` is the same mix before the MP3, to measure what the MP3 lost.
 */
export function dubbedVoice(seconds: number): { wav: string; mp3: string } {
  const text = join(folderFor('voice-text', seconds), 'voice.txt');
  writeFixture(text, `${'a dubbed voice reads this sentence over the quiet of the room. '.repeat(seconds)}`);
  const mix = [
    ...['-f', 'lavfi', '-i', `flite=textfile=${text}:voice=slt`],
    ...['-f', 'lavfi', '-i', 'anoisesrc=a=0.03:c=pink:r=48000'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000'],
    '-filter_complex',
    `[0]aresample=48000[v];[2]volume=0.05[h];[v][1][h]amix=inputs=3:duration=first:normalize=0,` +
      `aformat=channel_layouts=stereo,atrim=end=${seconds}`,
  ];
  const wav = ffmpeg([...mix, '-c:a', 'pcm_s16le'], `voice-${seconds}s.wav`);
  return { wav, mp3: ffmpeg(['-i', wav, '-c:a', 'libmp3lame', '-b:a', '128k'], `voice-${seconds}s.mp3`) };
}

/** EBU R128 integrated loudness (LUFS) of `graph` (ending where ebur128 goes) over `inputs` (system ffmpeg). */
function integratedLoudness(inputs: string[], graph: string): number {
  const run = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-nostats', ...inputs.flatMap((i) => ['-i', i])],
      ...['-filter_complex', `${graph}ebur128`, '-f', 'null', '-'],
    ],
    { encoding: 'utf8' },
  );
  const summary = run.stderr.slice(run.stderr.lastIndexOf('Summary:'));
  const found = summary.match(/I:\s+(-?[\d.]+) LUFS/);
  if (run.status !== 0 || !found?.[1]) throw new Error(`ebur128 gave no loudness: ${run.stderr.slice(-500)}`);
  return Number(found[1]);
}

/** The loudness of a file's first audio stream, in LUFS. */
export function loudness(path: string): number {
  return integratedLoudness([path], '[0:a:0]');
}

/**
 * The loudness of what `encoded` differs from `reference` by (their difference, sample by sample, in
 * LUFS): how much error an encode added. -70 is silence: nothing differs.
 */
export function errorLoudness(reference: string, encoded: string): number {
  return integratedLoudness([reference, encoded], '[1:a:0]volume=-1[n];[0:a:0][n]amix=inputs=2:normalize=0,');
}

export { ffmpeg as ffmpegFixture };
