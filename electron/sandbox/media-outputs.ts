import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { markedCopy, silentMp3 } from './media-marks';
import type { ProcessPool } from './process-pool';

/** What the sandbox measured of an upload (media.ts `probeMedia`). */
export interface ProbedMedia {
  duration: number;
  hasVideo: boolean;
  hasAudio: boolean;
}

/** One output file and the comment tag that tells it from the others (see media-marks.ts). */
export interface Marked {
  path: string;
  comment: string;
}

/** What a dub's media outputs are made of: the MP4s (none for a sound), the poster, the dubbed sound and its twin. */
export interface MediaOutputs {
  videos: readonly Marked[];
  poster: string;
  /** Encoded from the upload's sound (silence when it has none). */
  sound: Marked;
  /** The same sound, marked as the original. */
  soundTwin: Marked;
}

const mp4Copy = (input: number, out: Marked) => [
  ...['-map', `${input}:v:0`, '-map', `${input}:a:0?`, '-c', 'copy'],
  ...['-metadata', `comment=${out.comment}`, '-movflags', '+faststart', out.path],
];

/**
 * Every MP4, the poster and the dubbed MP3 in one ffmpeg run over `video` (the upload, or its re-encoded
 * MP4): a dub's outputs cost one process start instead of eight.
 */
function oneRunArgs(video: string | null, upload: string, media: ProbedMedia, o: MediaOutputs): string[] {
  const inputs = ['-i', video ?? upload];
  const args: string[] = [];
  if (video) {
    o.videos.forEach((v) => args.push(...mp4Copy(0, v)));
    // Read no further than the poster's frame: ffmpeg would otherwise decode the rest of the picture for nothing.
    inputs.push('-ss', String(Math.min(1, media.duration / 2)), '-t', '1', '-i', upload);
    args.push('-map', '1:v:0', '-frames:v', '1', o.poster);
  }
  // A picture without sound gets silence as long as it: the lavfi input after the others.
  const silence = video ? 2 : 1;
  if (!media.hasAudio)
    inputs.push('-f', 'lavfi', '-t', String(media.duration), '-i', 'anullsrc=r=44100:cl=mono');
  const sound = media.hasAudio ? '0:a:0' : `${silence}:a:0`;
  args.push('-map', sound, '-c:a', 'libmp3lame', '-b:a', media.hasAudio ? '64k' : '32k');
  args.push('-metadata', `comment=${o.sound.comment}`, o.sound.path);
  return ['-v', 'error', '-y', ...inputs, ...args];
}

/** The outputs made with ffmpeg: a stream copy where MP4 takes the upload's codecs, a re-encode otherwise. */
export async function outputsWithFfmpeg(
  upload: string,
  media: ProbedMedia,
  o: MediaOutputs,
  dir: string,
  pool: ProcessPool,
): Promise<void> {
  const video = media.hasVideo ? upload : null;
  try {
    await pool.run('ffmpeg', oneRunArgs(video, upload, media, o));
  } catch (e) {
    if (!video) throw e;
    const remuxed = join(dir, 'remuxed.mp4');
    await pool.run('ffmpeg', [
      ...['-v', 'error', '-y', '-i', upload, '-map', '0:v:0', '-map', '0:a:0?'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', remuxed],
    ]);
    await pool.run('ffmpeg', oneRunArgs(remuxed, upload, media, o));
    await rm(remuxed, { force: true });
  }
  await pool.run('ffmpeg', [
    ...['-v', 'error', '-y', '-i', o.sound.path, '-map', '0', '-c', 'copy'],
    ...['-metadata', `comment=${o.soundTwin.comment}`, o.soundTwin.path],
  ]);
}

/**
 * The outputs made without ffmpeg: copies of the upload with a mark the format allows, and for the sound
 * the upload itself when it is an MP3, else silence as long as the media.
 */
export async function outputsWithoutFfmpeg(
  upload: string,
  uploadType: string,
  media: ProbedMedia,
  o: MediaOutputs,
): Promise<void> {
  for (const v of o.videos) await markedCopy(upload, v.path, v.comment);
  const plain = `${o.sound.path}.plain.mp3`;
  if (uploadType === 'audio/mpeg') await copyFile(upload, plain);
  else await silentMp3(plain, media.duration);
  await markedCopy(plain, o.sound.path, o.sound.comment);
  await markedCopy(plain, o.soundTwin.path, o.soundTwin.comment);
  await rm(plain, { force: true });
}
