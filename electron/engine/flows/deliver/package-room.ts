import { stat } from 'node:fs/promises';
import type { MediaTools } from '../../../media-tools/locate';
import type { PackagedDub } from '../../media/ffmpeg/package';
import { probeStreams } from '../../media/ffmpeg/streams';

/** Room for the container's own bytes (headers, index, cues) beyond its streams'. */
const OVERHEAD = (streams: number) => Math.ceil(streams * 0.02) + 256 * 1024;

/**
 * A package that did not fit on its disk: `bytes` is about what it takes, so that the room asked for is
 * enough once freed. Its `code` says ENOSPC, as any write its disk refused.
 */
export class PackageRoomError extends Error {
  override name = 'PackageRoomError';
  readonly code = 'ENOSPC';
  constructor(
    readonly bytes: number,
    cause: unknown,
  ) {
    super((cause as Error)?.message ?? 'no space left on the disk', { cause });
  }
}

const sizeOf = (path: string) =>
  stat(path).then(
    (s) => s.size,
    () => 0,
  );

/**
 * The bytes a dub adds to a package: its sound's (bit rate × length), or its whole file when the file does
 * not say (never less than it adds).
 */
async function dubSoundBytes(tools: MediaTools, dub: PackagedDub, signal?: AbortSignal): Promise<number> {
  const file = await sizeOf(dub.media);
  const audio = (await probeStreams(tools.ffprobe, dub.media, signal, 'service').catch(() => null))?.audio;
  const fromRate =
    audio?.bitRate && audio.durationSeconds ? (audio.bitRate * audio.durationSeconds) / 8 : null;
  return Math.ceil(Math.min(file, fromRate ?? file));
}

/**
 * About the size of the package of `source` and `dubs`, from above: the source whole (its picture and its
 * sound are copied), each dub's sound, each subtitle file, and the container's overhead.
 */
export async function packageBytes(
  tools: MediaTools,
  source: string,
  dubs: readonly PackagedDub[],
  signal?: AbortSignal,
): Promise<number> {
  let streams = await sizeOf(source);
  for (const d of dubs) {
    streams += await dubSoundBytes(tools, d, signal);
    if (d.srt) streams += await sizeOf(d.srt);
  }
  return streams + OVERHEAD(streams);
}
