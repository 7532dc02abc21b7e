import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFile } from 'music-metadata';
import type { OutputType } from '../../shared/api/common';
import { languageName } from '../../shared/languages';
import { extensionForMime } from '../../shared/media-types';
import { spoilMedia, spoilSubtitles } from './bad-dubs';
import {
  outputsWithFfmpeg,
  outputsWithoutFfmpeg,
  type MediaOutputs,
  type ProbedMedia,
} from './media-outputs';
import type { BadDub } from './options';
import type { ProcessPool } from './process-pool';
import type { Artifact } from './state';

/** A stream running longer than the container says by more than this is believed instead. */
const LONGER_SLACK_S = 1;

interface ProbedStream {
  codec_type?: string;
  duration?: string;
  nb_frames?: string;
  r_frame_rate?: string;
}

/**
 * How long a stream plays: its own duration, or for video its frame count over its frame rate (from the
 * sample tables, which a patched header leaves as they are: headers can say anything). 0 when it cannot tell.
 */
function streamSeconds(s: ProbedStream): number {
  const own = Number(s.duration);
  const [num, den] = (s.r_frame_rate ?? '').split('/').map(Number);
  const frames = Number(s.nb_frames);
  const counted = s.codec_type === 'video' && num && den && frames > 0 ? frames / (num / den) : 0;
  return Math.max(Number.isFinite(own) ? own : 0, Number.isFinite(counted) ? counted : 0);
}

/** Where the last packet ends (its time plus its own length): how long a file plays that says nothing. */
async function lastPacketEnd(path: string, pool: ProcessPool): Promise<number> {
  const { stdout } = await pool.run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'packet=pts_time,duration_time',
    '-of',
    'csv=p=0',
    path,
  ]);
  let end = 0;
  for (const line of stdout.split('\n')) {
    const [at = '', length = ''] = line.split(',');
    const t = Number(at) + (Number(length) || 0);
    if (Number.isFinite(t) && t > end) end = t;
  }
  return end;
}

/**
 * The server's own measurement: ffprobe when installed, else a header parser. Throws on unreadable media.
 * The container's duration, unless a stream runs longer by over a second: then the longest
 * (a service bills what it dubs, whatever the file's headers claim).
 */
export async function probeMedia(path: string, pool: ProcessPool): Promise<ProbedMedia> {
  if (pool.tools) {
    const { stdout } = await pool.run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration:stream=codec_type,duration,nb_frames,r_frame_rate',
      '-of',
      'json',
      path,
    ]);
    const parsed = JSON.parse(stdout) as {
      format?: { duration?: string };
      streams?: ProbedStream[];
    };
    const said = Number(parsed.format?.duration);
    const kinds = new Set((parsed.streams ?? []).map((s) => s.codec_type));
    if (!kinds.has('video') && !kinds.has('audio')) throw new Error('no playable audio or video stream');
    // A file that says no length (a WebM written through a pipe): read to its last packet, as a service would.
    const container = Number.isFinite(said) && said > 0 ? said : await lastPacketEnd(path, pool);
    if (container <= 0) throw new Error('no playable audio or video stream');
    const longest = Math.max(0, ...(parsed.streams ?? []).map(streamSeconds));
    const duration = longest > container + LONGER_SLACK_S ? longest : container;
    return { duration, hasVideo: kinds.has('video'), hasAudio: kinds.has('audio') };
  }
  const meta = await parseFile(path, { duration: true });
  const duration = meta.format.duration;
  if (!duration || duration <= 0) throw new Error('no playable audio or video stream');
  return { duration, hasVideo: Boolean(meta.format.hasVideo), hasAudio: meta.format.hasAudio !== false };
}

/** A cue at least this long: a shorter rest of the media goes into the cue before it. */
const MIN_CUE_SECONDS = 3;

/**
 * Valid WebVTT with one cue every four seconds over the whole duration, each readable in its time (at most
 * 20 characters a second, as QC asks): the last cue takes a short rest, and a media too short for the
 * note gets the language and the number only.
 */
export function webVtt(duration: number, lang: string, note: string): string {
  const ts = (s: number) => {
    const ms = Math.round(s * 1000);
    const h = Math.floor(ms / 3_600_000);
    const m = Math.floor((ms % 3_600_000) / 60_000);
    const sec = Math.floor((ms % 60_000) / 1000);
    return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
  };
  const cues: string[] = [];
  const step = 4;
  for (let start = 0, n = 1; start < duration; start += step, n++) {
    const end = duration - (start + step) < MIN_CUE_SECONDS ? duration : start + step;
    const long = `[${languageName(lang)}] ${note} ${n}`;
    const text = long.length <= (end - start) * 20 ? long : `[${languageName(lang)}] ${n}`;
    cues.push(`${n}\n${ts(start)} --> ${ts(end)}\n${text}`);
    if (end === duration) break;
  }
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/**
 * Honest stand-ins for the pipeline's results: the sandbox does not translate, so the "dubbed" media is the
 * upload remuxed (or re-encoded), tagged with its language, and the subtitles say what they are.
 */
export async function makeArtifacts(
  uploadPath: string,
  uploadType: string,
  media: ProbedMedia,
  langs: { source: string; dest: string },
  dir: string,
  stem: string,
  pool: ProcessPool,
  /** How this dub is to come out bad (QC's test cases); none: a good dub. */
  bad: readonly BadDub[] = [],
): Promise<Partial<Record<OutputType, Artifact>>> {
  await mkdir(dir, { recursive: true });
  const out: Partial<Record<OutputType, Artifact>> = {};
  const at = (name: string) => join(dir, name);
  const ff = pool.tools !== null;

  const originalExt = extensionForMime(uploadType);
  out.original = {
    path: uploadPath,
    contentType: uploadType,
    fileName: originalExt ? `${stem}.${originalExt}` : stem,
  };

  // Each output its own file: the dubbed media name their language in a tag (see media-marks.ts).
  const dubbed = `dubbed into ${langs.dest} (sandbox: not a real translation)`;
  const videos = media.hasVideo
    ? ([
        ['translated_mp4', 'translated.mp4', dubbed, `${stem}.${langs.dest}.mp4`],
        ['translated', 'translated-pipeline.mp4', `${dubbed}, pipeline format`, `${stem}.${langs.dest}.mp4`],
        ['original_mp4', 'original.mp4', 'original video as MP4', `${stem}.mp4`],
      ] as const)
    : [];
  const outputs: MediaOutputs = {
    videos: videos.map(([, file, comment]) => ({ path: at(file), comment })),
    poster: at('poster.jpg'),
    sound: { path: at('translated.mp3'), comment: dubbed },
    soundTwin: { path: at('original.mp3'), comment: 'original audio' },
  };
  if (ff) await outputsWithFfmpeg(uploadPath, media, outputs, dir, pool);
  else await outputsWithoutFfmpeg(uploadPath, uploadType, media, outputs);
  if (ff && media.hasVideo)
    out.poster = { path: outputs.poster, contentType: 'image/jpeg', fileName: `${stem}.jpg` };
  for (const [type, file, , fileName] of videos) {
    if (ff && type !== 'original_mp4') await spoilMedia(at(file), bad, media.duration, pool);
    out[type] = { path: at(file), contentType: 'video/mp4', fileName };
  }
  if (ff) await spoilMedia(outputs.sound.path, bad, media.duration, pool);
  out.translated_mp3 = {
    path: outputs.sound.path,
    contentType: 'audio/mpeg',
    fileName: `${stem}.${langs.dest}.mp3`,
  };
  out.original_mp3 = { path: outputs.soundTwin.path, contentType: 'audio/mpeg', fileName: `${stem}.mp3` };

  const subDest = at('translated.vtt');
  await writeFile(
    subDest,
    spoilSubtitles(
      webVtt(media.duration, langs.dest, 'Sandbox subtitle (not a real translation), cue'),
      bad,
      media.duration,
    ),
  );
  out.translated_subtitle = { path: subDest, contentType: 'text/vtt', fileName: `${stem}.${langs.dest}.vtt` };
  const subSource = at('original.vtt');
  await writeFile(
    subSource,
    webVtt(media.duration, langs.source, 'Sandbox transcript (not a real transcription), cue'),
  );
  out.original_subtitle = {
    path: subSource,
    contentType: 'text/vtt',
    fileName: `${stem}.${langs.source}.vtt`,
  };
  return out;
}
