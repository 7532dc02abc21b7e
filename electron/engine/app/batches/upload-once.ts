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

/**
 * What the batch's jobs that take part would not upload: all but one per file, or all when one is there;
 * and how many of the batch's files take part, out of how many.
 */
export function uploadOnceSavings(
  store: JobStore,
  jobs: readonly NewJob[],
): { enabled: boolean; bytesSaved: number; files: number; outOf: number } {
  const byFile = new Map<string, NewJob[]>();
  const files = new Set<string>();
  for (const j of jobs) {
    if (j.source_kind === 'file') files.add(j.source);
    if (!j.upload_once || j.source_kind !== 'file') continue;
    const list = byFile.get(j.source);
    if (list) list.push(j);
    else byFile.set(j.source, [j]);
  }
  let bytesSaved = 0;
  for (const list of byFile.values()) {
    const first = list[0];
    if (!first) continue;
    const uploads = alreadyThere(store, first) ? 0 : 1;
    bytesSaved += (list.length - uploads) * (first.source_bytes ?? 0);
  }
  return { enabled: byFile.size > 0, bytesSaved, files: byFile.size, outOf: files.size };
}
