import { ExternalStatus } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
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

/** Newest first, the dub our lost create made: same name, language and hint, made after the attempt, nobody's yet. */
export async function findCreated(
  ctx: StepContext,
  job: LeasedJob,
  fields: CreateV2Fields,
): Promise<DubV2 | null> {
  const since = (job.row.create_attempted_at ?? 0) - CLOCK_SKEW_MS;
  const taken = ctx.store.remoteIdsOwnedByOthers(job.row.id);
  const abandoned = new Set(JSON.parse(job.row.abandoned_remote_ids) as string[]);
  for (let page = 1; ; page++) {
    // Each page is an HTTP call of its own: a stop asked (the first Ctrl+C, a pause) takes effect here.
    if (page > 1) job.checkpoint();
    if (page > LOOKUP_MAX_PAGES)
      throw new ApiError(
        'protocol',
        `the service lists more than ${LOOKUP_MAX_PAGES * 100} dubs newer than this job's lost create; Dubdesk stopped looking rather than risk paying twice`,
      );
    const list = await ctx.clients.v2.list(page, 100, ctx.signal);
    for (const d of list.dubs) {
      const created = Date.parse(d.created_at);
      if (created < since) return null;
      if (taken.has(d.id) || abandoned.has(d.id) || d.external_status_id === ExternalStatus.Failed) continue;
      // The duration hint tells two same-named files apart; a service may round what it echoes back.
      const sameHint = fields.duration === undefined || Math.abs(d.duration - fields.duration) < 1;
      if (d.name === fields.name && d.dest_lang === fields.dest_lang && sameHint) return d;
    }
    if (page >= list.pagination.total_pages || list.dubs.length === 0) return null;
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
): Promise<DubV2> {
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
