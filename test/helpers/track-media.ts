/**
 * Sources with several tagged audio tracks, made by ffmpeg at test time: the broadcast file, the film with
 * a commentary, the recording with its original language second. Each track a tone of its own, so which
 * one was sent can be told from its packets (`trackMd5`).
 */
import { execFileSync } from 'node:child_process';
import { ffmpegFixture } from './media';

export interface ToneTrack {
  language: string;
  title: string;
  hz: number;
  seconds: number;
  channels: 1 | 2 | 6;
}

/** The three tracks of `threeTracks`: English main mix, a shorter French version, an English commentary. */
export const THREE_TRACKS: readonly ToneTrack[] = [
  { language: 'eng', title: 'Main mix', hz: 440, seconds: 6, channels: 2 },
  { language: 'fre', title: 'Version française', hz: 660, seconds: 4, channels: 2 },
  { language: 'eng', title: 'Commentary', hz: 220, seconds: 6, channels: 1 },
];

/**
 * A 6-second H.264 MP4 with AAC tracks tagged with their languages and titles (the handler name players
 * show). The French track is 4 s: a check measured against another track is 2 s off.
 */
export function videoWithTracks(name: string, tracks: readonly ToneTrack[] = THREE_TRACKS): string {
  const inputs = [
    ...['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=6'],
    ...tracks.flatMap((t) => ['-f', 'lavfi', '-i', `sine=frequency=${t.hz}:duration=${t.seconds}`]),
  ];
  const maps = ['-map', '0:v', ...tracks.flatMap((_, i) => ['-map', `${i + 1}:a`])];
  const tags = tracks.flatMap((t, i) => [
    `-ac:a:${i}`,
    String(t.channels),
    `-metadata:s:a:${i}`,
    `language=${t.language}`,
    `-metadata:s:a:${i}`,
    `handler_name=${t.title}`,
  ]);
  const codecs = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'];
  return ffmpegFixture([...inputs, ...maps, ...codecs, ...tags], name);
}

/** The MD5 of one audio track's packets (`n` from 1): the same for a copy of that track, whatever holds it. */
export function trackMd5(path: string, n: number): string {
  return execFileSync('ffmpeg', [
    ...['-v', 'error', '-i', path, '-map', `0:a:${n - 1}`, '-c', 'copy', '-f', 'md5', '-'],
  ])
    .toString()
    .trim();
}
