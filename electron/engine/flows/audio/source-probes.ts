import type { JobRow } from '../../db/jobs';
import { probeStreams, type MediaStreams } from '../../media/ffmpeg/streams';

/** Sources remembered: a batch's files rebuild one language after another, a few at a time. */
const KEPT = 32;

/**
 * A source's streams, read once for all its languages: by path, size and modification time, which the
 * rebuild checked just before (a changed file is never rebuilt from). A failed read is not kept.
 */
export class SourceProbes {
  private readonly seen = new Map<string, Promise<MediaStreams>>();

  of(ffprobe: string, r: Pick<JobRow, 'source' | 'source_bytes' | 'source_mtime'>, signal: AbortSignal) {
    const key = `${ffprobe}\0${r.source}\0${r.source_bytes}\0${r.source_mtime}`;
    const known = this.seen.get(key);
    if (known) return known;
    const reading = probeStreams(ffprobe, r.source, signal);
    reading.catch(() => this.seen.delete(key));
    this.seen.set(key, reading);
    for (const oldest of this.seen.keys()) {
      if (this.seen.size <= KEPT) break;
      this.seen.delete(oldest);
    }
    return reading;
  }
}
