import { ExternalStatus } from '../../../shared/api/common';
import { DubV2Identity } from '../../../shared/api/v2';
import { DubdeskError } from '../../../shared/contract/errors';
import { ApiError } from '../api/errors';
import type { CreateV2Fields } from '../api/v2';
import { CREATE_ANSWERED } from '../db/jobs';
import type { LeasedJob, StepContext } from './context';

/** How far back (local clock vs the service's) a dub may be dated and still be the one our create made. */
const CLOCK_SKEW_MS = 2 * 60_000;
/**
 * Pages of the list read when looking for a lost create's dub: 1,000 dubs made since the attempt. A service
 * that lists more (or never stops paging) gets no further requests: the job fails instead of paying twice.
 */
export const LOOKUP_MAX_PAGES = 10;

/** The dub a lookup took for its create's: its status, or null when its list item is one Dubdesk refuses. */
export interface Found {
  id: string;
  status: number | null;
}

/**
 * Newest first, the dub our lost create made: same name, language and hint, made after the attempt, nobody's
 * yet. A list item that breaks the dub schema but still says who it is counts too: a dub the service made
 * is paid for however it is listed, so it is taken (and its job fails at the next poll, naming the fault)
 * rather than made again.
 */
export async function findCreated(
  ctx: StepContext,
  job: LeasedJob,
  fields: CreateV2Fields,
): Promise<Found | null> {
  const since = (job.row.create_attempted_at ?? 0) - CLOCK_SKEW_MS;
  const taken = ctx.store.reads.remoteIdsOwnedByOthers(job.row.id);
  const abandoned = new Set(job.row.abandoned_remote_ids);
  const ours = (d: DubV2Identity) =>
    !taken.has(d.id) &&
    !abandoned.has(d.id) &&
    d.external_status_id !== ExternalStatus.Failed &&
    d.name === fields.name &&
    d.dest_lang === fields.dest_lang &&
    Date.parse(d.created_at) >= since &&
    // The duration hint tells two same-named files apart; a service may round what it echoes back.
    (fields.duration === undefined ||
      typeof d.duration !== 'number' ||
      Math.abs(d.duration - fields.duration) < 1);
  for (let page = 1; ; page++) {
    // Each page is an HTTP call of its own: a stop asked (the first Ctrl+C, a pause) takes effect here.
    if (page > 1) job.checkpoint();
    if (page > LOOKUP_MAX_PAGES)
      throw new ApiError(
        'protocol',
        `the service lists more than ${LOOKUP_MAX_PAGES * 100} dubs newer than this job's lost create; Dubdesk stopped looking rather than risk paying twice`,
      );
    const list = await ctx.clients.v2.list(page, 100, ctx.signal);
    const older = list.dubs.findIndex((d) => Date.parse(d.created_at) < since);
    const mine = list.dubs.slice(0, older === -1 ? undefined : older).find(ours);
    if (mine) return { id: mine.id, status: mine.external_status_id };
    const refused = list.refused
      .map((r) => DubV2Identity.safeParse(r.item))
      .find((p) => p.success && ours(p.data));
    if (refused?.data) return { id: refused.data.id, status: null };
    if (older !== -1 || page >= list.pagination.total_pages) return null;
    if (list.dubs.length + list.refused.length === 0) return null;
  }
}

/**
 * The service said yes to the create (2xx) but its answer could not be read (`unread`; null when that was
 * an earlier attempt): the dub exists and will be charged. It is looked up as a lost answer's would be;
 * if it is not there, the job fails, and no other dub is ever made in its place.
 */
export async function findAnswered(
  ctx: StepContext,
  job: LeasedJob,
  fields: CreateV2Fields,
  unread: ApiError | null,
): Promise<Found> {
  job.record({ create_pending: CREATE_ANSWERED });
  const found = await findCreated(ctx, job, fields);
  if (found) return found;
  const why = unread ? ` (${unread.message})` : '';
  throw new DubdeskError(
    'service',
    `the service took the dub of ${job.row.source_name} into ${job.row.dest_lang}, but its answer could not be read${why} and that dub is not in its list; Dubdesk made no other, so as not to pay twice`,
    {
      remedy:
        'Check the dubs in your account on the service. Retrying this job only looks for that dub again; to have a new one made, clear this job and add the file again.',
    },
  );
}
