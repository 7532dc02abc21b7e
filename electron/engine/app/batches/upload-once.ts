import type { BatchRequest } from '../../../../shared/contract/batches';
import type { JobRow, JobStore, NewJob } from '../../db/jobs';

/**
 * `auto` turns upload-once on for files from this size, when more than one language is asked for.
 *
 * The other languages can only start once the first dub has completed (its `original` link appears then),
 * so upload-once trades the time of one dub for the uploads it saves. Below ~50 MB an upload takes well under
 * a minute even on a modest 10-20 Mbit/s uplink, less than the first dub takes: uploading each language
 * at once finishes sooner. From there on the saved uploads (4 x 50 MB ≈ 3 minutes at 10 Mbit/s for five
 * languages, ten times that for a 500 MB master) outweigh the wait, and the bytes saved matter on metered
 * or shared lines.
 */
export const UPLOAD_ONCE_AUTO_BYTES = 50 * 1024 * 1024;

/** Whether a file's jobs take part: v2 only (v1 and legacy cannot create from a link), files only. */
export function takesPart(
  choice: BatchRequest['uploadOnce'],
  api: BatchRequest['api'],
  bytes: number,
  languages: number,
): boolean {
  if (api !== 'v2' || choice === false) return false;
  if (choice === true) return true;
  return bytes >= UPLOAD_ONCE_AUTO_BYTES && languages > 1;
}

const CARRYING: readonly JobRow['state'][] = ['queued', 'uploading', 'submitted', 'processing'];

/** A job of this file already in the queue that puts (or put) it on the service: nobody in the batch must. */
function alreadyThere(store: JobStore, job: NewJob): boolean {
  return store.reads
    .sameSource({ id: -1, source: job.source })
    .some(
      (o) =>
        o.api === 'v2' &&
        o.source_bytes === job.source_bytes &&
        o.source_mtime === job.source_mtime &&
        ((o.remote_id !== null && o.remote_status === 5) || CARRYING.includes(o.state)),
    );
}

/** What one job of a file puts on the wire: the whole file unless told (the sound alone on the audio path). */
export type BytesOf = (job: NewJob) => number;
const wholeFile: BytesOf = (j) => j.source_bytes ?? 0;
const tookPart = (j: NewJob) => j.upload_once === 1;

/**
 * The jobs of each file that take part in upload once (all but one upload nothing more, or all when the
 * file is already there), with the bytes they do not send.
 */
export function bytesNotSent(
  store: JobStore,
  jobs: readonly NewJob[],
  bytesOf: BytesOf = wholeFile,
  takes: (job: NewJob) => boolean = tookPart,
): { bytes: number; files: number } {
  const byFile = new Map<string, NewJob[]>();
  for (const j of jobs) {
    if (!takes(j) || j.source_kind !== 'file') continue;
    const list = byFile.get(j.source);
    if (list) list.push(j);
    else byFile.set(j.source, [j]);
  }
  let bytes = 0;
  for (const list of byFile.values()) {
    const first = list[0];
    if (!first) continue;
    const uploads = alreadyThere(store, first) ? 0 : 1;
    bytes += (list.length - uploads) * bytesOf(first);
  }
  return { bytes, files: byFile.size };
}

/**
 * What the batch's jobs that take part would not upload (`bytesOf` each sends: the sound alone on the audio
 * path), and how many of the batch's files take part, out of how many.
 */
export function uploadOnceSavings(
  store: JobStore,
  jobs: readonly NewJob[],
  bytesOf: BytesOf = wholeFile,
): { enabled: boolean; bytesSaved: number; files: number; outOf: number } {
  const outOf = new Set(jobs.filter((j) => j.source_kind === 'file').map((j) => j.source)).size;
  const saved = bytesNotSent(store, jobs, bytesOf);
  return { enabled: saved.files > 0, bytesSaved: saved.bytes, files: saved.files, outOf };
}
