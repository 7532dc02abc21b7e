/**
 * Real media for the send plan's stream reading (media/in-process/ against ffprobe): the containers, codecs
 * and track layouts a user's videos come in, files that lie or are damaged, and names a user's disk has.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ffmpegFixture, lengthlessWebm, lyingMp4, videoChaptersPastEnd } from './media';
import { tempDir } from './temp-dir';

/** Who is to answer for a file: the in-process reader, or (it cannot tell) ffprobe. */
export type Reader = 'in-process' | 'ffprobe';

export interface PlanMedia {
  name: string;
  path: string;
  reader: Reader;
}

const picture = (seconds: number) => [
  '-f',
  'lavfi',
  '-t',
  String(seconds),
  '-i',
  'testsrc=size=160x120:rate=10',
];
const tone = (seconds: number, rate = 48000, hz = 440) => [
  ...['-f', 'lavfi', '-t', String(seconds), '-i', `sine=frequency=${hz}:sample_rate=${rate}`],
];
const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
/** With B-frames: the picture's edit list then starts past its first frames. */
const H264_B = ['-c:v', 'libx264', '-preset', 'medium', '-bf', '2', '-pix_fmt', 'yuv420p'];

/** One made by ffmpeg: `inputs` then `outputs`, as `name`. */
const made = (name: string, inputs: string[], outputs: string[]) =>
  ffmpegFixture([...inputs, ...outputs], name);

/** A copy of `path` cut to `fraction` of its bytes: a download or copy that stopped part way. */
function cut(path: string, fraction: number, name: string): string {
  const out = join(tempDir('cut'), name);
  const bytes = readFileSync(path);
  writeFileSync(out, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return out;
}

/** A copy of `path` under `name` (spaces, non-ASCII, NFD: what a user's disk holds). */
function named(path: string, name: string): string {
  const out = join(tempDir('named'), name);
  mkdirSync(dirname(out), { recursive: true });
  if (!existsSync(out)) copyFileSync(path, out);
  return out;
}

/** Eight copies of `piece` joined by stream copy, as a recorder's segments are: each brings its encoder's delay. */
function joined(piece: string, name: string): string {
  const dir = tempDir('joined');
  const list = join(dir, 'list.txt');
  writeFileSync(list, `file '${piece}'\n`.repeat(8));
  const out = join(dir, name);
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', out]);
  return out;
}

export function planMedia(): PlanMedia[] {
  const v = (name: string, path: string, reader: Reader = 'in-process'): PlanMedia => ({
    name,
    path,
    reader,
  });
  const both = (s: number) => [...picture(s), ...tone(s)];
  const mp4Aac = made('h264-aac.mp4', both(3), [...H264, '-c:a', 'aac']);
  return [
    v('MP4 H.264 + AAC', mp4Aac),
    v(
      'MP4 H.264 with B-frames + AAC 44.1 kHz',
      made('bframes.mp4', [...picture(4), ...tone(4, 44100)], [...H264_B, '-c:a', 'aac']),
    ),
    v('MP4 faststart', made('faststart.mp4', both(3), [...H264, '-c:a', 'aac', '-movflags', '+faststart'])),
    v(
      'MP4 fragmented',
      made('fragmented.mp4', both(3), [...H264, '-c:a', 'aac', '-movflags', '+frag_keyframe+empty_moov']),
      'ffprobe',
    ),
    v('MP4 without sound', made('silent.mp4', picture(3), H264)),
    v('MOV H.264 + AAC', made('camera.mov', both(3), [...H264, '-c:a', 'aac'])),
    v('MOV without sound', made('silent.mov', picture(2), H264)),
    v('MOV PCM sound', made('pcm.mov', both(2), [...H264, '-c:a', 'pcm_s16le']), 'ffprobe'),
    v('MP4 MP3 stereo sound', made('mp3-stereo.mp4', both(3), [...H264, '-c:a', 'libmp3lame', '-ac', '2'])),
    v('MP4 MP3 sound', made('mp3-sound.mp4', both(3), [...H264, '-c:a', 'libmp3lame'])),
    v('MP4 Opus sound', made('opus-sound.mp4', both(3), [...H264, '-c:a', 'libopus']), 'ffprobe'),
    v('MP4 AC-3 5.1 sound', made('ac3.mp4', both(3), [...H264, '-c:a', 'ac3', '-ac', '6']), 'ffprobe'),
    v(
      'MP4 joined from pieces by stream copy (its picture starts late: an empty edit)',
      joined(mp4Aac, 'joined pieces.mp4'),
      'ffprobe',
    ),
    v(
      'MP4 AAC at 22.05 kHz (HE-AAC cannot be told from it)',
      made('aac-22k.mp4', [...picture(3), ...tone(3, 22050)], [...H264, '-c:a', 'aac']),
      'ffprobe',
    ),
    v('MP4 AAC 5.1', made('surround.mp4', both(3), [...H264, '-c:a', 'aac', '-ac', '6'])),
    v(
      'MP4 three sound tracks (AAC mono, AAC stereo 44.1 kHz, MP3)',
      made(
        'three-tracks.mp4',
        [...picture(3), ...tone(3), ...tone(3, 44100, 220), ...tone(3, 48000, 660)],
        [
          ...['-map', '0', '-map', '1', '-map', '2', '-map', '3'],
          ...[...H264, '-c:a:0', 'aac', '-c:a:1', 'aac', '-ac:a:1', '2', '-c:a:2', 'libmp3lame'],
        ],
      ),
      // Several sound tracks: ffprobe lists them all for choosing one (--audio-track).
      'ffprobe',
    ),
    v(
      'MP4 sound shorter than the picture',
      made('short-sound.mp4', [...picture(5), ...tone(3)], [...H264, '-c:a', 'aac']),
    ),
    v(
      'MP4 sound longer than the picture',
      made('long-sound.mp4', [...picture(3), ...tone(5)], [...H264, '-c:a', 'aac']),
    ),
    v(
      'MP4 HEVC + AAC',
      made('hevc.mp4', both(2), ['-c:v', 'libx265', '-preset', 'ultrafast', '-tag:v', 'hvc1', '-c:a', 'aac']),
    ),
    v('MP4 MPEG-4 part 2 + AAC', made('mpeg4.mp4', both(2), ['-c:v', 'mpeg4', '-c:a', 'aac'])),
    v('MP4 sound alone', made('sound-alone.mp4', tone(3), ['-c:a', 'aac', '-f', 'mp4'])),
    v('MP4 with chapters past its end', videoChaptersPastEnd(3, 6, 'chapters-past-end.mp4'), 'ffprobe'),
    v('MP4 whose movie header says 1 s of 5', lyingMp4(5, 'lying-mvhd.mp4', ['mvhd'])),
    v('MP4 whose tracks say 1 s of 5', lyingMp4(5, 'lying-tracks.mp4', ['tkhd', 'mdhd'])),
    v(
      'MP4 cut off after its header',
      cut(made('cut.mp4', both(4), [...H264, '-c:a', 'aac', '-movflags', '+faststart']), 0.5, 'cut.mp4'),
    ),
    v('MKV H.264 + AAC', made('h264-aac.mkv', both(3), [...H264, '-c:a', 'aac'])),
    v('MKV MPEG-4 + MP2', made('mpeg4-mp2.mkv', both(3), ['-c:v', 'mpeg4', '-c:a', 'mp2'])),
    v('MKV MP3 sound', made('mp3.mkv', both(3), [...H264, '-c:a', 'libmp3lame']), 'ffprobe'),
    v(
      'MKV two sound tracks (Opus stereo, AAC)',
      made(
        'two-tracks.mkv',
        [...picture(3), ...tone(3), ...tone(3, 44100, 220)],
        [
          ...['-map', '0', '-map', '1', '-map', '2', ...H264],
          ...['-c:a:0', 'libopus', '-ac:a:0', '2', '-c:a:1', 'aac'],
        ],
      ),
      'ffprobe',
    ),
    v('MKV without sound', made('silent.mkv', picture(3), H264)),
    v('MKV cut off half way', cut(made('cut.mkv', both(4), [...H264, '-c:a', 'aac']), 0.5, 'cut.mkv')),
    v(
      'WebM VP8 + Opus',
      made('vp8.webm', both(3), ['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus']),
    ),
    v(
      'WebM VP9 + Opus 5.1',
      made('vp9.webm', both(2), [
        '-c:v',
        'libvpx-vp9',
        '-deadline',
        'realtime',
        '-c:a',
        'libopus',
        '-ac',
        '6',
      ]),
    ),
    v('WebM that says no length (a browser recording)', lengthlessWebm(3, 'recorded.webm'), 'ffprobe'),
    v(
      'MKV named .mp4',
      named(made('matroska-inside.mkv', both(2), [...H264, '-c:a', 'aac']), 'not really an.mp4'),
    ),
    v('spaces and non-ASCII', named(mp4Aac, 'Réunion 会議 final cut.mp4')),
    v(
      'NFD name',
      named(
        made('nfd.mkv', both(2), [...H264, '-c:a', 'aac']),
        'Cafe\u0301 de\u0301ja\u0300 vu.mkv'.normalize('NFD'),
      ),
    ),
  ];
}
