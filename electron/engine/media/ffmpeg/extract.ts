import { rename, rm, stat } from 'node:fs/promises';
import type { ApiGeneration } from '../../../../shared/contract/jobs';
import { audioPlan, type AudioPlan } from './audio-plan';
import type { MediaTools } from './locate';
import { lengthsAsEdited } from './edit-list-length';
import { runTool } from './run';
import type { MediaStreams } from './streams';

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
 */
export async function extractAudio(
  tools: MediaTools,
  source: string,
  streams: MediaStreams,
  api: ApiGeneration,
  dest: string,
  signal?: AbortSignal,
): Promise<Extracted> {
  if (!streams.audio) throw new Error(`${source} has no audio stream`);
  const plan = audioPlan(streams.audio, api);
  const path = `${dest}.${plan.ext}`;
  const part = `${path}.part`;
  // A part left by a run that was killed (its ffmpeg may still be writing the old file: a new one is made).
  await rm(part, { force: true });
  try {
    await runTool(
      tools.ffmpeg,
      [
        '-nostdin',
        '-v',
        'error',
        '-y',
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
        '-f',
        plan.muxer,
        part,
      ],
      { timeoutMs: toolTimeout(streams.durationSeconds), signal },
    );
    if (plan.muxer === 'mp4') await lengthsAsEdited(part);
    await rename(part, path);
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
  return { path, bytes: (await stat(path)).size, plan };
}
