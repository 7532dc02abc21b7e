import type { PlanStreams } from '../ffmpeg/streams';
import { matroskaStreams } from './matroska-streams';
import type { ReadAt } from '../mp4-boxes';
import { mp4Streams, mp4StreamsAt } from './mp4-streams';

const MP4 = /^video\/(mp4|quicktime|x-m4v|3gpp2?)$/;

/**
 * What the send plan needs of a video's streams, read in this process for MP4/MOV/M4V/3GP and for
 * Matroska/WebM, to the same numbers ffprobe would give; null where only ffprobe can tell (any other
 * container, and the cases mp4-streams.ts and matroska-streams.ts name). A file that cannot be opened is
 * null too: ffprobe then says what it makes of it.
 */
export async function planStreamsInProcess(path: string, mime: string): Promise<PlanStreams | null> {
  const read = MP4.test(mime)
    ? mp4Streams
    : /^video\/(matroska|x-matroska|webm)$/.test(mime)
      ? matroskaStreams
      : null;
  return read ? read(path).catch(() => null) : null;
}

/**
 * `planStreamsInProcess` of an MP4/MOV/M4V/3GP through a reader of the file already open (probing's, its
 * first bytes in memory): the file is not opened again. Undefined for any other container.
 */
export function planStreamsAt(
  read: ReadAt,
  size: number,
  mime: string,
): Promise<PlanStreams | null> | undefined {
  return MP4.test(mime) ? mp4StreamsAt(read, size).catch(() => null) : undefined;
}
