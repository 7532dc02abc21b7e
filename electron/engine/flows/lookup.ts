import { ExternalStatus } from '../../../shared/api/common';
import { DubV2Identity } from '../../../shared/api/v2';
import { DubdeskError } from '../../../shared/contract/errors';
import { ApiError } from '../api/errors';
import { serviceTime } from '../api/service-time';
import type { CreateV2Fields, DubPageOfV2 } from '../api/v2';
import { CREATE_ANSWERED, type JobRow, type JobStore } from '../db/jobs';
import type { Clients, LeasedJob, StepContext } from './context';
import { markOf, type CreateMark } from './create-mark';

/**
 * How far apart two clocks of the service may be (its `Date` header and the times it writes), or this
 * machine's and the service's for a create sent before marks were kept.
 */
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

/** What a lookup reads with, for a worker's job or the poller's canceled one. */
export interface LookupEnv {
  store: JobStore;
  clients: Clients;
  signal: AbortSignal;
  /** Between two pages: stops the look when asked to. */
  checkpoint: () => void;
}

/** A listed dub that looks like the create's (name, language, duration hint), and when it was made. */
interface Lookalike extends Found {
  at: number | null;
}

/** What the list says of a lost create: its dub, none, or dubs Dubdesk cannot tell from it. */
export type Verdict = { kind: 'found'; found: Found } | { kind: 'none' } | { kind: 'unsure'; ids: string[] };

/** Names as the service may store them: macOS sends `Café` decomposed (NFD), a service may keep it NFC. */
const sameName = (a: string, b: string) => a.normalize('NFC') === b.normalize('NFC');

/**
 * The page's items in the order listed, each as who it is: a list item that breaks the dub schema but still
 * says who it is counts too (a dub the service made is paid for however it is listed; its job then fails
 * at the next poll, naming the fault, rather than a second one being made).
 */
function itemsOf(list: DubPageOfV2): { id: string; identity: DubV2Identity | null; status: number | null }[] {
  const ok = new Map(list.dubs.map((d) => [d.id, d]));
  const refused = new Map(list.refused.map((r) => [r.id, r.item]));
  return list.order.map((id) => {
    const dub = ok.get(id);
    if (dub) return { id, identity: dub, status: dub.external_status_id };
    const parsed = DubV2Identity.safeParse(refused.get(id));
    return { id, identity: parsed.success ? parsed.data : null, status: null };
  });
}

/**
 * Newest first, the dubs of the list that could be our lost create's: same name, language and duration
 * hint, not failed, nobody's yet, listed before the mark (the service's newest dub when the create was
 * sent). Without the mark in the list (deleted since, or a create sent before marks were kept), each is
 * placed by the time the service wrote on it, read on the service's own clock.
 */
export async function lookUp(env: LookupEnv, row: JobRow, fields: CreateV2Fields): Promise<Verdict> {
  const mark = markOf(row);
  const taken = env.store.reads.remoteIdsOwnedByOthers(row.id);
  const abandoned = new Set(row.abandoned_remote_ids);
  const ours = (d: DubV2Identity) =>
    !taken.has(d.id) &&
    !abandoned.has(d.id) &&
    d.external_status_id !== ExternalStatus.Failed &&
    sameName(d.name, fields.name) &&
    d.dest_lang === fields.dest_lang &&
    // The duration hint tells two same-named files apart; a service may round what it echoes back.
    (fields.duration === undefined ||
      typeof d.duration !== 'number' ||
      Math.abs(d.duration - fields.duration) < 1);
  const markAt = mark?.newestAt ? serviceTime(mark.newestAt) : null;
  const emptyThen = mark !== null && mark.newestId === null;
  const lookalikes: Lookalike[] = [];
  let since: { at: number; trusted: boolean } | null = null;
  let markSeen = false;
  pages: for (let page = 1; ; page++) {
    // Each page is an HTTP call of its own: a stop asked (the first Ctrl+C, a pause) takes effect here.
    if (page > 1) env.checkpoint();
    if (page > LOOKUP_MAX_PAGES)
      throw new ApiError(
        'protocol',
        `the service lists more than ${LOOKUP_MAX_PAGES * 100} dubs newer than this job's lost create; Dubdesk stopped looking rather than risk paying twice`,
      );
    const list = await env.clients.v2.list(page, 100, env.signal);
    since ??= sinceOf(mark, markAt, row.create_attempted_at, list.serviceNow);
    for (const { id, identity, status } of itemsOf(list)) {
      if (mark?.newestId === id) {
        markSeen = true;
        break pages;
      }
      const at = identity ? serviceTime(identity.created_at) : null;
      if (identity && ours(identity)) lookalikes.push({ id, status, at });
      // Older than the attempt: so is everything listed after it (an empty account then: every dub counts).
      if (!emptyThen && at !== null && since?.trusted && at < since.at) break pages;
    }
    if (page >= list.pagination.total_pages || list.order.length === 0) break;
  }
  // Listed before the mark (or the account was empty then): the create's. Else placed by the service's
  // clock: made after the attempt, the create's; before it, someone else's; without a time, nobody knows.
  const certain = emptyThen || markSeen;
  const bound = since?.trusted ? since.at : null;
  const placed = (l: Lookalike) => certain || (l.at !== null && bound !== null);
  const after = lookalikes.filter((l) => certain || (placed(l) && (l.at ?? 0) >= (bound ?? 0)));
  const unplaced = lookalikes.filter((l) => !placed(l));
  const only = after[0];
  if (after.length === 1 && unplaced.length === 0 && only) return { kind: 'found', found: only };
  if (after.length === 0 && unplaced.length === 0) return { kind: 'none' };
  return { kind: 'unsure', ids: [...after, ...unplaced].map((l) => l.id) };
}

/**
 * The earliest the create's dub can have been made, on the service's clock: the time written on the
 * newest dub before it; else the service's `Date` then, less the skew between its clocks; for a create
 * sent before marks were kept, the service's `Date` now less the time since the attempt. `trusted`: read
 * from the service, not this machine's clock (the last resort, which only ever narrows to "not sure").
 */
function sinceOf(
  mark: CreateMark | null,
  markAt: number | null,
  attemptedAt: number | null,
  serviceNow: number | null,
): { at: number; trusted: boolean } | null {
  if (markAt !== null) return { at: markAt, trusted: true };
  if (mark?.serviceAt != null) return { at: mark.serviceAt - CLOCK_SKEW_MS, trusted: true };
  if (attemptedAt === null) return null;
  const elapsed = Math.max(0, Date.now() - attemptedAt);
  if (serviceNow !== null) return { at: serviceNow - elapsed - CLOCK_SKEW_MS, trusted: true };
  return { at: attemptedAt - CLOCK_SKEW_MS, trusted: false };
}

const CHECK_ACCOUNT =
  'Check the dubs in your account on the service. Retrying this job only looks for that dub again; to have a new one made, clear this job and add the file again.';

/** Why a lookup could not tell: the dubs that look like the create's, for the user to check. */
export function unsureWhy(row: Pick<JobRow, 'source_name' | 'dest_lang'>, ids: readonly string[]): string {
  const listed = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, and ${ids.length - 5} more` : '');
  return `the answer to the create of ${row.source_name} into ${row.dest_lang} was lost, and Dubdesk cannot tell which of the service's dubs is the one it made (${listed})`;
}

function unsure(job: LeasedJob, ids: readonly string[]): DubdeskError {
  return new DubdeskError('service', `${unsureWhy(job.row, ids)}; it made no other, so as not to pay twice`, {
    remedy: CHECK_ACCOUNT,
  });
}

/**
 * The dub our lost create made, or null when the service surely did not make one. When the list cannot
 * tell (several look alike, or one cannot be placed before or after the create), the job fails naming
 * them: never another dub made, never someone else's taken.
 */
export async function findCreated(
  ctx: StepContext,
  job: LeasedJob,
  fields: CreateV2Fields,
): Promise<Found | null> {
  const env = { ...ctx, checkpoint: () => job.checkpoint() };
  const verdict = await lookUp(env, job.row, fields);
  if (verdict.kind === 'unsure') throw unsure(job, verdict.ids);
  return verdict.kind === 'found' ? verdict.found : null;
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
    { remedy: CHECK_ACCOUNT },
  );
}
