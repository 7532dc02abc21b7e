import { z } from 'zod';
import { MediaToolError, runTool } from '../../../media-tools/run';
import { streamLanguage } from './language-tag';
import { serviceFormats } from './service-input';

/** What ffprobe says of a file's streams: only the fields the audio path reads, checked. */
const StreamSchema = z.object({
  index: z.number().int(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  codec_tag_string: z.string().optional(),
  channels: z.number().int().optional(),
  sample_rate: z.string().optional(),
  bit_rate: z.string().optional(),
  duration: z.string().optional(),
  nb_frames: z.string().optional(),
  disposition: z
    .object({
      attached_pic: z.number().optional(),
      forced: z.number().optional(),
      hearing_impaired: z.number().optional(),
    })
    .partial()
    .optional(),
  tags: z.record(z.string(), z.string()).optional(),
  side_data_list: z.array(z.object({ rotation: z.number().optional() }).loose()).optional(),
});
const ProbeSchema = z.object({
  streams: z.array(StreamSchema).default([]),
  format: z
    .object({
      duration: z.string().optional(),
      format_name: z.string().optional(),
      bit_rate: z.string().optional(),
    })
    .default({}),
  chapters: z.array(z.unknown()).default([]),
});

export interface AudioStream {
  index: number;
  codec: string;
  channels: number | null;
  bitRate: number | null;
  durationSeconds: number | null;
  /**
   * Frames beyond what its timeline plays, where the container counts them (MP4, MOV); else null. An
   * encoder's delay and padding make one to three.
   */
  extraFrames: number | null;
  /** The language its own tag names (ISO 639-2, `eng`); null when it names none. */
  language: string | null;
  /** The name the file gives it ("Commentary"), or null. */
  title?: string | null;
}

/**
 * What the send plan reads of a file's streams: ffprobe's MediaStreams has it all, and for the common
 * containers it is read in this process instead (media/in-process/), to the same numbers.
 */
export interface PlanStreams {
  video: { codec: string } | null;
  audio: Pick<AudioStream, 'codec' | 'channels' | 'bitRate' | 'durationSeconds' | 'extraFrames'> | null;
  /** Every audio stream, in the file's order, where they were read (ffprobe reads them all). */
  audios?: readonly AudioStream[];
  durationSeconds: number | null;
}

/** A subtitle track of the source's own (a release's dialogue in its language, forced signs). */
export interface SubtitleStream {
  index: number;
  codec: string;
  /** The language its own tag names (ISO 639-2); null when it names none. */
  language: string | null;
  /** The name players show (Matroska's title, an MP4's handler name); null when none. */
  title: string | null;
  forced: boolean;
  hearingImpaired: boolean;
}

export interface MediaStreams {
  /** The picture: the first video stream that is not cover art. */
  video: {
    index: number;
    codec: string;
    codecTag: string;
    rotation: number | null;
    /** Null where the container keeps no length per stream (Matroska). */
    durationSeconds: number | null;
  } | null;
  /** The audio stream dubbed: the first unless a track was chosen (`withTrack`). */
  audio: AudioStream | null;
  /** Every audio stream, in the file's order. */
  audios: AudioStream[];
  /** Every subtitle track, in the file's order. */
  subtitles: SubtitleStream[];
  durationSeconds: number | null;
  formatName: string;
  chapters: number;
}

const num = (s: string | undefined) => {
  const n = Number(s);
  return s !== undefined && Number.isFinite(n) && n > 0 ? n : null;
};

/** Samples a frame holds, for the codecs whose sound can be sent as it is. */
const SAMPLES_PER_FRAME: Record<string, number> = { aac: 1024, mp3: 1152 };

function extraFrames(audio: z.infer<typeof StreamSchema>): number | null {
  const frames = num(audio.nb_frames);
  const rate = num(audio.sample_rate);
  const seconds = num(audio.duration);
  const perFrame = SAMPLES_PER_FRAME[audio.codec_name ?? ''];
  return frames && rate && seconds && perFrame ? frames - (seconds * rate) / perFrame : null;
}

/**
 * Whether the sound holds more frames than its timeline plays: a source joined from pieces by stream copy
 * (`ffmpeg -f concat -c copy`, a recorder's segments) keeps each piece's encoder delay, and decoded as it is
 * plays longer than its picture (0.62 s over twenty 1-minute pieces). One file has an encoder's delay and
 * padding of its own: up to about three frames.
 */
export function joinedFromPieces(audio: Pick<AudioStream, 'extraFrames'>): boolean {
  return (audio.extraFrames ?? 0) > 4;
}

/** ffmpeg names a track's handler this way when nobody gave it one: not a title a person wrote. */
const MUXER_HANDLERS = /^(SubtitleHandler|SoundHandler|Core Media (Text|Audio)|TextHandler)$/i;

function subtitleStream(s: z.infer<typeof StreamSchema>): SubtitleStream {
  const tags = s.tags ?? {};
  const title = tags.title ?? tags.TITLE ?? tags.handler_name ?? null;
  return {
    index: s.index,
    codec: s.codec_name ?? 'unknown',
    language: streamLanguage(tags.language ?? tags.LANGUAGE),
    title: title && !MUXER_HANDLERS.test(title) ? title : null,
    forced: s.disposition?.forced === 1,
    hearingImpaired: s.disposition?.hearing_impaired === 1,
  };
}

function audioStream(s: z.infer<typeof StreamSchema>): AudioStream {
  const tags = s.tags ?? {};
  const title = tags.title ?? tags.TITLE ?? tags.handler_name ?? null;
  return {
    index: s.index,
    codec: s.codec_name ?? 'unknown',
    channels: s.channels ?? null,
    bitRate: num(s.bit_rate),
    durationSeconds: num(s.duration),
    extraFrames: extraFrames(s),
    language: streamLanguage(tags.language ?? tags.LANGUAGE),
    title: title && !MUXER_HANDLERS.test(title) ? title : null,
  };
}

/**
 * An ffprobe that crashed on a file (the static builds Dubdesk ships do on any MPEG-TS on some machines:
 * a camcorder's `.mts`, a recorder's `.ts`) is not the last word: the PATH's ffprobe reads it next. Where
 * there is none, the error names the file and two ways out.
 */
async function afterCrash<T>(
  e: unknown,
  ffprobe: string,
  path: string,
  again: (other: string) => Promise<T>,
): Promise<T> {
  if (!(e instanceof MediaToolError) || !e.crashedWith) throw e;
  if (ffprobe !== PATH_FFPROBE) {
    const read = await again(PATH_FFPROBE).catch(() => null);
    if (read) return read;
  }
  const asMp4 = `${path.replace(/\.[^./\\]*$/, '')}.mp4`;
  throw new MediaToolError(
    `ffprobe crashed reading ${path} (${e.crashedWith}), as some ffmpeg builds do with MPEG-TS on some ` +
      `machines: install ffmpeg so that its ffprobe is on the PATH (Dubdesk tries it next), or copy the ` +
      `file into an MP4 first (ffmpeg -i "${path}" -c copy "${asMp4}")`,
    e.stderr,
    'failed',
    undefined,
    e.crashedWith,
  );
}
/** The ffprobe the PATH names, found by the tool host's spawn. */
const PATH_FFPROBE = 'ffprobe';

/**
 * A file's streams, as ffprobe reads them (`-show_streams -show_format -show_chapters`). A file that came
 * from the service (`from: 'service'`) is read only as the formats Dubdesk saves (service-input.ts).
 */
export async function probeStreams(
  ffprobe: string,
  path: string,
  signal?: AbortSignal,
  from: 'service' | 'user' = 'user',
): Promise<MediaStreams> {
  const args = [
    ...['-v', 'error', ...(from === 'service' ? serviceFormats : [])],
    ...['-show_streams', '-show_format', '-show_chapters', '-of', 'json', path],
  ];
  const { stdout } = await runTool(ffprobe, args, { timeoutMs: 60_000, signal }).catch((e: unknown) =>
    afterCrash(e, ffprobe, path, (other) => runTool(other, args, { timeoutMs: 60_000, signal })),
  );
  const parsed = ProbeSchema.parse(JSON.parse(stdout));
  const video = parsed.streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audios = parsed.streams.filter((s) => s.codec_type === 'audio').map(audioStream);
  const rotation =
    video?.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? num(video?.tags?.rotate);
  return {
    video: video
      ? {
          index: video.index,
          codec: video.codec_name ?? 'unknown',
          codecTag: video.codec_tag_string ?? '',
          rotation: rotation ?? null,
          durationSeconds: num(video.duration),
        }
      : null,
    audio: audios[0] ?? null,
    audios,
    subtitles: parsed.streams.filter((s) => s.codec_type === 'subtitle').map(subtitleStream),
    durationSeconds: num(parsed.format.duration),
    formatName: parsed.format.format_name ?? '',
    chapters: parsed.chapters.length,
  };
}

/**
 * How long the sound sent of this file plays, and so what the service bills for it: the first audio
 * stream's length, never more than the file's (a sound running past the picture is cut there, as the
 * rebuilt video cuts it). Null when ffprobe says neither.
 */
export function soundSeconds(streams: Pick<PlanStreams, 'audio' | 'durationSeconds'>): number | null {
  const known = [streams.audio?.durationSeconds, streams.durationSeconds].filter(
    (n): n is number => typeof n === 'number',
  );
  return known.length ? Math.min(...known) : null;
}

/**
 * How long the picture lasts, which the dubbed sound is fitted to: the video stream's own length, else the
 * sound's. Never the container's alone: chapters or a data track running past the end lengthen it (a newer
 * ffprobe counts them), and a dub padded to them would play on over a picture that has ended.
 */
export function pictureSeconds(streams: MediaStreams): number | null {
  return streams.video?.durationSeconds ?? soundSeconds(streams);
}
