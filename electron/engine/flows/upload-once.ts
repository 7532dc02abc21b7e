import type { DubV2 } from '../../../shared/api/v2';
import { ApiError } from '../api/errors';
import type { CreateV2Fields } from '../api/v2';
import { CREATE_SENT, type JobRow } from '../db/jobs';
import type { LeasedJob, StepContext } from './context';
import type { CreateMark } from './create-mark';
import { findAnswered, type Found } from './lookup';

/**
 * Upload once, dub many: what a v2 file job taking part does now.
 * - `link`: another dub of the same file completed on the service: make this one from its `original`.
 * - `wait`: another job of the file is uploading it or being dubbed, or comes first in the queue.
 * - `upload`: nobody else will put the file on the service: this job does.
 */
export type OncePlan =
  { kind: 'upload' } | { kind: 'link'; donors: JobRow[] } | { kind: 'wait'; on: JobRow; message: string };

/** How long a waiting job sleeps if no sibling wakes it (they do, in the same transaction as their change). */
export const FIRST_UPLOAD_RECHECK_MS = 5 * 60_000;

const IN_FLIGHT: readonly JobRow['state'][] = ['submitted', 'processing'];

/** The same file as far as the queue knows: same path, size and modification time, same service. */
function sameFile(me: JobRow, other: JobRow): boolean {
  return (
    other.id !== me.id &&
    other.api === 'v2' &&
    other.source_kind === 'file' &&
    other.source === me.source &&
    other.source_bytes === me.source_bytes &&
    other.source_mtime === me.source_mtime &&
    (other.service === me.service || other.service === '' || me.service === '')
  );
}

export function planUploadOnce(me: JobRow, others: readonly JobRow[]): OncePlan {
  const same = others.filter((o) => sameFile(me, o));
  // Any completed dub of the file holds the service's copy, whatever became of its download.
  const donors = same
    .filter((o) => o.remote_id !== null && o.remote_status === 5)
    .sort((a, b) => b.id - a.id);
  if (donors.length) return { kind: 'link', donors };
  const carrier =
    same.find((o) => o.state === 'uploading') ??
    same.find((o) => IN_FLIGHT.includes(o.state) && o.remote_id !== null) ??
    // The first queued job of the file uploads it; the others wait for its dub (a paused one carries nothing).
    same.find((o) => o.state === 'queued' && o.id < me.id);
  if (!carrier) return { kind: 'upload' };
  return {
    kind: 'wait',
    on: carrier,
    message: `waiting for the first language's upload to finish (job #${carrier.id} → ${carrier.dest_lang})`,
  };
}

/** A fresh link to the service's copy of the file, from the newest completed dub that still offers one. */
async function freshOriginal(
  ctx: StepContext,
  donors: readonly JobRow[],
): Promise<{ url: string; donor: string } | null> {
  for (const d of donors) {
    let dub: DubV2;
    try {
      dub = await ctx.clients.v2.get(d.remote_id ?? '', ctx.signal);
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'not-found') continue; // deleted on the service: next one
      throw e;
    }
    const link = dub.outputs.original ?? dub.outputs.original_mp4;
    if (dub.external_status_id === 5 && link) return { url: link.download_url, donor: dub.id };
  }
  return null;
}

/**
 * Creates the dub from the service's own copy. Null when there is no usable copy, or when the service
 * refused the link (recorded in the job's history): the caller uploads the file instead.
 */
export async function createFromCopy(
  ctx: StepContext,
  job: LeasedJob,
  fields: CreateV2Fields,
  donors: readonly JobRow[],
  /** Where the create stands among the service's dubs (see create-mark.ts); null: the list was unreadable. */
  mark: CreateMark | null,
): Promise<Found | null> {
  const original = await freshOriginal(ctx, donors);
  if (!original) return null;
  job.checkpoint();
  // Recorded before the request leaves: a lost answer is looked for (same name and language) first.
  job.record({
    create_pending: CREATE_SENT,
    create_attempted_at: Date.now(),
    create_mark: mark && JSON.stringify(mark),
    made_from: 'link',
    donor_remote_id: original.donor,
  });
  try {
    const dub = await ctx.clients.v2.createFromUrl(original.url, fields, ctx.signal);
    return { id: dub.id, status: dub.external_status_id };
  } catch (e) {
    if (e instanceof ApiError && e.answeredUnread) return findAnswered(ctx, job, fields, e);
    if (e instanceof ApiError && e.kind === 'bad-request') {
      // Refused outright (an expired or unreachable link, a service that takes no links): nothing was made.
      job.record({ create_pending: 0, made_from: null, donor_remote_id: null });
      job.apply({ type: 'link-refused', message: e.message });
      return null;
    }
    if (e instanceof ApiError && e.kind === 'backend' && e.remoteId) {
      const abandoned = [...job.row.abandoned_remote_ids, e.remoteId];
      job.record({ create_pending: 0, abandoned_remote_ids: abandoned });
    }
    throw e;
  }
}
