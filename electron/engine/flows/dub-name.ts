import { parse } from 'node:path';
import type { JobRow } from '../db/jobs';

/**
 * The name a job's dub is given on the service: the file's own, and for a track other than the first the
 * track beside it (`Film.track3.mp4`, as its results are named). Two tracks of one file into one language
 * share their language and length: their name is all that tells their dubs apart when a restored queue
 * (restored-dubs.ts) or a lost answer's lookup (lookup.ts) looks for its own among the service's.
 */
export function dubName(r: Pick<JobRow, 'source_name' | 'audio_track'>): string {
  if (r.audio_track === 'first') return r.source_name;
  const { name, ext } = parse(r.source_name);
  return `${name}.track${r.audio_track}${ext}`;
}
