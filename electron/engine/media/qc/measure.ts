import { z } from 'zod';
import { trackChoice, type AudioTrack } from '../../../../shared/contract/audio-track';
import { toolTimeout } from '../ffmpeg/extract';
import { fromService } from '../ffmpeg/service-input';
import type { MediaTools } from '../../../media-tools/locate';
import { MediaToolError, runTool } from '../../../media-tools/run';
import { parseIntegrated, parseMeasureLog, parseSilences, type Silence } from './measure-log';

export type { Silence } from './measure-log';

/** Below this a stretch counts as silence (-50 dBFS: room tone and breath are above it, digital silence far below). */
export const SILENCE_DB = -50;
/** A dub's silence this long or longer is looked at against the source (the rule: 5 s). */
export const LONG_SILENCE_SECONDS = 5;
/** A pause of the source this long means nobody speaks there: shorter ones are breaths between sentences. */
export const SOURCE_PAUSE_SECONDS = 2;

/** The file has no sound at all: ffmpeg refused to map its first audio stream (every version says so). */
export class NoSoundError extends Error {
  override name = 'NoSoundError';
}

/** `runTool`, with a file that has no audio stream said as such (not as ffmpeg failing). */
async function overSound(
  tools: MediaTools,
  args: string[],
  opts: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await runTool(tools.ffmpeg, args, opts);
  } catch (e) {
    if (e instanceof MediaToolError && /matches no streams/.test(e.stderr))
      throw new NoSoundError('it has no sound track');
    throw e;
  }
}

/** What one pass of ffmpeg over a dub's sound measures. */
export interface AudioMeasure {
  /** The length of the sound itself (not the container's, which a picture may make longer). */
  durationSeconds: number;
  /** EBU R128 integrated loudness; null when the sound is silent throughout (gated out). */
  integratedLufs: number | null;
  /** EBU R128 true peak (4x oversampled); null when silent. */
  truePeakDbtp: number | null;
  samplePeakDbfs: number | null;
  /** Silences at least LONG_SILENCE_SECONDS long. */
  silences: Silence[];
  /** Samples within 1 dB of full scale, of `samples` in all. */
  fullScaleSamples: number;
  samples: number;
}

const filters = (minSilence: number) =>
  [
    // framelog=verbose: the per-frame lines stay below the log level; only the summary is printed.
    'ebur128=peak=true+sample:framelog=verbose',
    `silencedetect=n=${SILENCE_DB}dB:d=${minSilence}`,
    'volumedetect',
  ].join(',');

/** The `-progress` report's last `out_time_us`: how far the sound went, whatever the container says. */
const ProgressEnd = z.object({ out_time_us: z.coerce.number().int().nonnegative() });

function progressSeconds(stdout: string): number {
  const last: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) last[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return ProgressEnd.parse(last).out_time_us / 1e6;
}

const baseArgs = (input: string[], sound = '0:a:0') => [
  '-hide_banner',
  '-nostats',
  '-nostdin',
  '-v',
  'info',
  '-progress',
  'pipe:1',
  ...input,
  '-map',
  sound,
  '-vn',
  '-sn',
  '-dn',
];

/**
 * Loudness, true peak, silences, clipping and the sound's length, in ONE ffmpeg pass over the first audio
 * stream (the picture is not decoded): ebur128, silencedetect and volumedetect chained on one decode. The
 * file is a dub's (the service's, or a video made here from it): read only as the formats Dubdesk saves.
 */
export async function measureAudio(
  tools: MediaTools,
  path: string,
  opts: { expectedSeconds?: number | null; signal?: AbortSignal } = {},
): Promise<AudioMeasure> {
  const { stdout, stderr } = await overSound(
    tools,
    [...baseArgs(fromService(path)), '-af', filters(LONG_SILENCE_SECONDS), '-f', 'null', '-'],
    { timeoutMs: toolTimeout(opts.expectedSeconds ?? null), signal: opts.signal },
  );
  const durationSeconds = progressSeconds(stdout);
  const log = parseMeasureLog(stderr, durationSeconds);
  return { durationSeconds, ...log };
}

/** The ffmpeg stream specifier of a source's audio track as a job stores it: the first, or its number. */
export function trackMap(track: AudioTrack): string {
  const c = trackChoice(track);
  if (c.by === 'number') return `0:a:${c.number - 1}`;
  // A job stores the track found, not a language (fan-out.ts); a language still names its first such track.
  return c.by === 'language' ? `0:a:m:language:${c.tag}` : '0:a:0';
}

/**
 * Where a source is silent (pauses of SOURCE_PAUSE_SECONDS or more), for telling a dub's long silence
 * where the original speaks from one where it is quiet too; and its integrated loudness, for telling a dub
 * off the target from a dub as loud as its original, of the track dubbed. One cheap pass (no true peak), once per source.
 */
export async function measureSource(
  tools: MediaTools,
  path: string,
  opts: { expectedSeconds?: number | null; signal?: AbortSignal; track?: AudioTrack } = {},
): Promise<{ durationSeconds: number; silences: Silence[]; integratedLufs: number | null }> {
  const { stdout, stderr } = await overSound(
    tools,
    [
      ...baseArgs(['-i', path], trackMap(opts.track ?? 'first')),
      '-af',
      `ebur128=framelog=verbose,silencedetect=n=${SILENCE_DB}dB:d=${SOURCE_PAUSE_SECONDS}`,
      '-f',
      'null',
      '-',
    ],
    { timeoutMs: toolTimeout(opts.expectedSeconds ?? null), signal: opts.signal },
  );
  const durationSeconds = progressSeconds(stdout);
  return {
    durationSeconds,
    silences: parseSilences(stderr, durationSeconds),
    integratedLufs: parseIntegrated(stderr),
  };
}
