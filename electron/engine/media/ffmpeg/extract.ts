import { stat } from 'node:fs/promises';
import type { ApiGeneration } from '../../../../shared/contract/jobs';
import { audioPlan, type AudioPlan } from './audio-plan';
import type { MediaTools } from '../../../media-tools/locate';
import type { MediaStreams } from './streams';
import { ffmpegWhole } from './write-whole';

export interface Extracted {
  path: string;
  bytes: number;
  plan: AudioPlan;
}

/** Long enough for an hour of sound re-encoded on a slow machine; a stuck ffmpeg is still stopped. */
export const toolTimeout = (seconds: number | null) => 120_000 + Math.ceil((seconds ?? 3600) * 1000);

/**
 * The source's first audio stream alone, into `dest` (no extension: the plan gives it), written to a `.part`
 * and renamed when whole. No picture, no subtitles, no metadata (the service needs none of the user's tags).
 * It plays `capSeconds` at most (the length the estimate billed: `soundSeconds`): a sound re-encoded is
 * cut there, one copied ends there by its edit list, so the service never measures more.
 */
export async function extractAudio(
  tools: MediaTools,
  source: string,
  streams: MediaStreams,
  api: ApiGeneration,
  dest: string,
  capSeconds: number | null,
  signal?: AbortSignal,
): Promise<Extracted> {
  if (!streams.audio) throw new Error(`${source} has no audio stream`);
  const plan = audioPlan(streams.audio, api);
  const path = `${dest}.${plan.ext}`;
  await ffmpegWhole(
    tools.ffmpeg,
    [
      '-i',
      source,
      '-map',
      `0:${streams.audio.index}`,
      '-vn',
      '-sn',
      '-dn',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      ...plan.codecArgs,
      ...(capSeconds !== null && !plan.copy ? ['-t', capSeconds.toFixed(6)] : []),
    ],
    plan.muxer,
    path,
    {
      timeoutMs: toolTimeout(streams.durationSeconds),
      signal,
      ...(capSeconds !== null ? { capSeconds } : {}),
    },
  );
  return { path, bytes: (await stat(path)).size, plan };
}
