import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Media made with ffmpeg at test time (not committed), once per process, removed when it exits. */
const dir = join(tmpdir(), `dubdesk-fixtures-${process.pid}`);
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

function ffmpeg(args: string[], out: string): string {
  const path = join(dir, out);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    // Its name in its metadata: two fixtures are two different files, as two of a user's videos are (a source
    // is its content; a test that means a copy copies one).
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, '-metadata', `comment=${out}`, path]);
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
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

export function emptyFile(name = 'empty.mp4'): string {
  return textFile(name, '');
}
