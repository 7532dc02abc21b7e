import type { JobOutputType, JobView } from './contract/jobs';
import type { MediaKind } from './face';

/** Which recorded output stands for each kind, best first. */
const OUTPUTS_FOR: Record<Exclude<MediaKind, 'original'>, readonly JobOutputType[]> = {
  dub: ['translated_mp4', 'translated', 'translated_mp3'],
  subtitles: ['translated_subtitle', 'translated_subtitle_srt'],
  poster: ['poster'],
};

const TYPE_BY_EXT: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  vtt: 'text/vtt',
  srt: 'application/x-subrip',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

export interface MediaFile {
  path: string;
  contentType: string;
  /** Subtitles in SRT must become WebVTT before a <track> can load them. */
  needsVtt: boolean;
}

const extOf = (path: string) => /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';

/**
 * The one file a media request for a job may serve: one of the job's own finished outputs, or (for
 * `original`) the job's own source file. Anything else is null: a media route never serves an arbitrary path.
 */
export function mediaFileFor(
  job: Pick<JobView, 'outputs' | 'source' | 'sourceKind'>,
  kind: MediaKind,
  sourceType: string | null,
): MediaFile | null {
  if (kind === 'original') {
    const fetched = job.outputs.find((o) => o.type === 'original_mp4' || o.type === 'original');
    const path = job.sourceKind === 'file' ? job.source : (fetched?.path ?? null);
    if (!path) return null;
    const ext = extOf(path);
    return {
      path,
      contentType: TYPE_BY_EXT[ext] ?? sourceType ?? 'application/octet-stream',
      needsVtt: false,
    };
  }
  for (const type of OUTPUTS_FOR[kind]) {
    const o = job.outputs.find((x) => x.type === type);
    if (!o) continue;
    const ext = extOf(o.path);
    const contentType = TYPE_BY_EXT[ext] ?? 'application/octet-stream';
    if (kind === 'subtitles') return { path: o.path, contentType: 'text/vtt', needsVtt: ext === 'srt' };
    return { path: o.path, contentType, needsVtt: false };
  }
  return null;
}

/**
 * The n-th output of a job, to be saved by the user (web mode, where the files are on another machine):
 * the recorded file and nothing else, whatever its type.
 */
export function outputFileFor(job: Pick<JobView, 'outputs'>, index: number): MediaFile | null {
  const o = Number.isInteger(index) && index >= 0 ? job.outputs[index] : undefined;
  if (!o) return null;
  return {
    path: o.path,
    contentType: TYPE_BY_EXT[extOf(o.path)] ?? 'application/octet-stream',
    needsVtt: false,
  };
}

/** SRT to WebVTT: the header, and commas to dots in the cue timings. */
export function srtToVtt(srt: string): string {
  const body = srt.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const cues = body.replace(/(\d{2}:\d{2}:\d{2}),(\d{3})/g, '$1.$2');
  return `WEBVTT\n\n${cues.trim()}\n`;
}
