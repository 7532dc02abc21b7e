import { languageTag } from './language-tag';
import { fromService } from './service-input';
import type { MediaTools } from '../../../media-tools/locate';
import { toolTimeout } from './extract';
import { pictureSeconds, type MediaStreams } from './streams';
import { ffmpegWhole } from './write-whole';
import type { PartWriters } from '../../../media-tools/part-writers';

/** Video codecs an MP4 holds as they are; anything else (ProRes, DNxHD, FFV1, VP8…) goes into Matroska. */
export const MP4_VIDEO = new Set(['h264', 'hevc', 'av1', 'vp9', 'mpeg4', 'mpeg2video', 'mjpeg']);

/** The container a source's picture is put back into: `mp4` when it fits, else `mkv`. */
export function rebuiltContainer(streams: MediaStreams): 'mp4' | 'mkv' {
  return streams.video && MP4_VIDEO.has(streams.video.codec) ? 'mp4' : 'mkv';
}

/** Lengths closer than this are the same (an AAC or MP3 frame is 21 to 26 ms). */
const SAME_LENGTH_SECONDS = 0.05;

/**
 * A dubbed soundtrack is always made exactly the source's length: one longer is cut at the source's end,
 * one shorter padded with silence to it. The picture is never touched (no frame dropped, none held).
 */
export interface LengthFit {
  how: 'same' | 'padded' | 'cut';
  /** The dubbed audio's length minus the source's, in seconds. */
  differenceSeconds: number;
  sourceSeconds: number;
}

export function describeFit(fit: LengthFit): string {
  const by = `${Math.abs(fit.differenceSeconds).toFixed(2)} s`;
  const to = `${fit.sourceSeconds.toFixed(2)} s`;
  if (fit.how === 'padded')
    return `the dubbed audio was ${by} shorter than the video: padded with silence to its ${to}`;
  if (fit.how === 'cut') return `the dubbed audio was ${by} longer than the video: cut at its ${to}`;
  return `the dubbed audio is the video's length (${to})`;
}

export function fitOf(dubbedSeconds: number, sourceSeconds: number): LengthFit {
  const differenceSeconds = Math.round((dubbedSeconds - sourceSeconds) * 1000) / 1000;
  const how =
    Math.abs(differenceSeconds) < SAME_LENGTH_SECONDS ? 'same' : differenceSeconds < 0 ? 'padded' : 'cut';
  return { how, differenceSeconds, sourceSeconds };
}

/** AAC-LC bits a second per channel: 128 kb/s for stereo. */
const AAC_BITS_PER_CHANNEL = 64_000;

/**
 * The dub's AAC: ffmpeg's own encoder with its fast coder, 64 kb/s a channel. The default coder (twoloop)
 * costs about three times the CPU at the same rate. Measured on a dubbed voice over background
 * (docs/audio-path.md, test/unit/audio-path-media.test.ts): the loudness (EBU R128 integrated, range, peak) is the input's, and the error
 * this encode adds lies about 30 dB under the signal, below what the service's own 128 kb/s MP3 carries.
 */
export function aacSettings(channels: number | null): string[] {
  const n = Math.min(Math.max(channels ?? 2, 1), 8);
  return ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', String(n * AAC_BITS_PER_CHANNEL)];
}

export interface RebuildInput {
  source: string;
  sourceStreams: MediaStreams;
  dubbedAudio: string;
  dubbedSeconds: number;
  /** The dubbed audio's channels (null: unknown, taken as stereo): the AAC's bitrate follows them. */
  dubbedChannels: number | null;
  destLang: string;
  /** The finished file's path; it is written to a `.part` of its own and renamed when whole. */
  out: string;
}

/**
 * The source's picture, copied bit for bit, under the dubbed audio encoded to AAC and tagged with its
 * language; the source's chapters, metadata and rotation kept. Only the picture and the dub: the source's
 * other audio tracks and its subtitles are in the language the user is dubbing away from.
 */
export async function rebuildVideo(
  tools: MediaTools,
  input: RebuildInput,
  signal?: AbortSignal,
  writers?: PartWriters,
): Promise<LengthFit> {
  const { sourceStreams: s } = input;
  if (!s.video) throw new Error(`${input.source} has no video stream`);
  const sourceSeconds = pictureSeconds(s) ?? input.dubbedSeconds;
  const fit = fitOf(input.dubbedSeconds, sourceSeconds);
  const container = rebuiltContainer(s);
  await ffmpegWhole(
    tools.ffmpeg,
    [
      '-i',
      input.source,
      ...fromService(input.dubbedAudio),
      '-map',
      `0:${s.video.index}`,
      '-map',
      '1:a:0',
      '-map_metadata',
      '0',
      '-map_chapters',
      '0',
      '-c:v',
      'copy',
      ...(container === 'mp4' && s.video.codec === 'hevc' ? ['-tag:v', 'hvc1'] : []),
      // Padded with silence, then cut: exactly the source's length whichever way it differed.
      '-af',
      `apad,atrim=end=${sourceSeconds.toFixed(6)}`,
      ...aacSettings(input.dubbedChannels),
      '-metadata:s:a:0',
      `language=${languageTag(input.destLang)}`,
      '-disposition:a:0',
      'default',
    ],
    container === 'mp4' ? 'mp4' : 'matroska',
    input.out,
    { timeoutMs: toolTimeout(sourceSeconds), signal, writers },
  );
  return fit;
}
