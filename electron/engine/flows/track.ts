import { ExternalStatus } from '../../../shared/api/common';
import type { DubV2 } from '../../../shared/api/v2';
import { LeaseLostError, type JobRow, type JobStore } from '../db/jobs';
import { ApiError } from '../api/errors';
import { transition, type LifeEvent } from '../jobs/life';
import type { Clients } from './context';
import { assertLanguage, describeRemoteError } from './fetch-outputs';
import { DubdeskError } from '../../../shared/contract/errors';
import type { SeenDubs } from './seen-dubs';
import type { RefusedDub } from '../api/list-items';
import { settleCanceledCreates } from './after-cancel';

/** Pages of the v2 list one poll reads at most (10,000 dubs). */
const POLL_MAX_PAGES = 100;

/** What a poll learned about one remote dub, in the same terms for every generation. */
export interface RemoteStatus {
  status: number;
  progress: number;
  error: unknown;
  measuredDuration: number | null;
  /** The language the service says the dub is in. */
  destLang: string;
}

/**
 * One poll of every tracked job through the list endpoints: v2 pages of 100 until each tracked dub has been
 * seen, v1 and legacy lists in one call each. Canceled jobs whose dub the service may still charge ride
 * along in the same lists until their dub ends (see `followedEvent`), and so do paused ones. Returns the jobs that changed (the interval adapts to them),
 * and the failure of a dub's own check, if one failed: what the poll learned of the others is kept.
 */
export async function pollOnce(
  store: JobStore,
  clients: Clients,
  service: string,
  signal: AbortSignal,
  seen?: SeenDubs,
  /** Jobs a worker of this process still holds (a canceled create still being torn down). */
  busy: (id: number) => boolean = () => false,
): Promise<{ changed: JobRow[]; failure: unknown }> {
  const followed = store.leases.followed(service);
  const tracked = [...store.leases.tracking(service), ...followed];
  const unwatched = new Set(followed.map((j) => j.id));
  const byApi = { v2: [] as JobRow[], v1: [] as JobRow[], legacy: [] as JobRow[] };
  for (const j of tracked) byApi[j.api].push(j);
  const statuses = new Map<string, RemoteStatus>();
  /** Dubs whose list item broke its schema: what was wrong, for their job's error. */
  const refused = new Map<string, RefusedDub>();
  seen?.prune();

  if (byApi.v2.length) {
    const wanted = new Set(byApi.v2.map((j) => j.remote_id));
    let found = 0;
    // Bounded whatever `total_pages` says: a dub not seen in these pages is asked for by id below.
    for (let page = 1; found < wanted.size && page <= POLL_MAX_PAGES; page++) {
      const list = await clients.v2.list(page, 100, signal);
      for (const r of list.refused)
        if (wanted.has(r.id)) {
          found++;
          refused.set(r.id, r);
        }
      for (const d of list.dubs) {
        if (!wanted.has(d.id)) continue;
        found++;
        if (d.external_status_id === ExternalStatus.Completed) seen?.remember(d);
        statuses.set(d.id, statusOf(d));
      }
      if (page >= list.pagination.total_pages || list.dubs.length === 0) break;
    }
  }
  if (byApi.v1.length) {
    const list = await clients.v1.list(signal);
    for (const r of list.refused) refused.set(r.id, r);
    for (const d of list.dubs) {
      statuses.set(d.id, {
        status: d.externalStatusId,
        progress: d.progressPercentage,
        error: d.externalErrorMessage,
        measuredDuration: d.measuredDuration,
        destLang: d.destLang,
      });
    }
  }
  if (byApi.legacy.length && clients.legacy) {
    for (const d of await clients.legacy.list(signal)) {
      statuses.set(d.id, {
        status: d.externalStatusId,
        progress: d.progressPercentage,
        error: d.externalErrorMessage,
        measuredDuration: null,
        destLang: d.dest_lang,
      });
    }
  }

  const events: { job: JobRow; event: LifeEvent }[] = [];
  let failure: unknown = null;
  for (const job of tracked) {
    if (job.api === 'legacy' && !clients.legacy) continue; // no legacy root configured: nothing to ask
    let remote = job.remote_id ? statuses.get(job.remote_id) : undefined;
    let event: LifeEvent;
    const broken = job.remote_id ? refused.get(job.remote_id) : undefined;
    if (broken !== undefined && !unwatched.has(job.id)) {
      events.push({
        job,
        event: {
          type: 'fail',
          error: {
            code: 'service',
            message: `the service's answer for dub ${job.remote_id ?? ''} (${job.source_name} into ${job.dest_lang}) is not a dub Dubdesk can accept: ${broken.problem}`,
            remedy: 'Report it to the service; check the charge for this dub in your account there.',
          },
          ...(broken.completed ? { completedAtService: broken.completed } : {}),
        },
      });
      continue;
    }
    if (!remote) {
      // Not in its list (gone, or a list that shows other dubs only): its details say where it is. One dub's
      // check failing (a 5xx, the line dropping) must not hold back what the poll saw of the others.
      const found = await details(clients, job, signal).catch((e: unknown) => {
        failure ??= e;
        return 'unknown' as const;
      });
      if (found === 'unknown') continue;
      if (found !== 'gone') {
        if (found.external_status_id === ExternalStatus.Completed) seen?.remember(found);
        remote = statusOf(found);
      }
    }
    if (unwatched.has(job.id)) {
      const ended = await followedEvent(clients, job, remote, signal);
      if (ended) events.push({ job, event: ended });
      continue;
    }
    if (!remote) {
      event = { type: 'remote-missing' };
    } else if (remote.status === ExternalStatus.Completed) {
      event =
        (await otherLanguage(clients, job, remote, signal)) ??
        ({ type: 'remote-completed', measuredDuration: remote.measuredDuration } as const);
    } else if (remote.status === ExternalStatus.Failed) {
      event = { type: 'remote-failed', message: describeRemoteError(remote.error) };
    } else {
      const state = remote.status === ExternalStatus.Processing ? 'processing' : 'submitted';
      if (
        job.state === state &&
        job.remote_status === remote.status &&
        job.progress === remote.progress &&
        job.waiting === null
      )
        continue;
      event = { type: 'remote-progress', status: remote.status, progress: remote.progress };
    }
    events.push({ job, event });
  }
  const changed = events.length ? store.tx(applyAll, store, events) : [];
  // Canceled while their create was under way: did the service make the dub? Then it is followed too.
  const settled = await settleCanceledCreates(store, clients, service, signal, busy).catch((e: unknown) => {
    failure ??= e;
    return [];
  });
  return { changed: [...changed, ...settled], failure };
}

/**
 * A completed dub in another language than asked (the lists say it; v2 details say it again at download)
 * fails its job, charged: the service charges what it completes, in whatever language. It is looked at once
 * the dub ends, not while it is being made, so that the charge is known. The legacy list has no measured
 * duration: the details are asked for it.
 */
async function otherLanguage(
  clients: Clients,
  job: JobRow,
  remote: RemoteStatus,
  signal: AbortSignal,
): Promise<LifeEvent | null> {
  try {
    assertLanguage(remote.destLang, job.dest_lang, job.remote_id ?? '');
    return null;
  } catch (e) {
    if (!(e instanceof DubdeskError)) throw e;
    const measuredDuration = remote.measuredDuration ?? (await measuredOf(clients, job, signal));
    return { type: 'fail', error: e.toJSON(), completedAtService: { measuredDuration } };
  }
}

/** What one poll learned, in one commit (each change is still its own savepoint: one lost leaves the rest). */
function applyAll(store: JobStore, events: readonly { job: JobRow; event: LifeEvent }[]): JobRow[] {
  const changed: JobRow[] = [];
  for (const { job, event } of events) {
    try {
      changed.push(
        transition(store, job.id, event.type === 'followed-dub-ended' ? 'followed' : 'tracked', event),
      );
    } catch (e) {
      if (!(e instanceof LeaseLostError)) throw e; // canceled, paused or retried meanwhile: the user's action wins
    }
  }
  return changed;
}

/** A v2 dub (a list item or its details) in the poll's terms. */
function statusOf(d: DubV2): RemoteStatus {
  return {
    status: d.external_status_id,
    progress: d.progress_percentage,
    error: d.external_error_message,
    measuredDuration: d.measured_duration,
    destLang: d.dest_lang,
  };
}

/**
 * What a poll saw of a canceled or paused job's dub (`undefined`: the service no longer has it): its end
 * (charged when it completed), or nothing to write yet.
 */
async function followedEvent(
  clients: Clients,
  job: JobRow,
  remote: RemoteStatus | undefined,
  signal: AbortSignal,
): Promise<LifeEvent | null> {
  if (!remote) return { type: 'followed-dub-ended', outcome: 'missing', measuredDuration: null };
  if (remote.status === ExternalStatus.Completed)
    return {
      type: 'followed-dub-ended',
      outcome: 'completed',
      measuredDuration: remote.measuredDuration ?? (await measuredOf(clients, job, signal)),
    };
  if (remote.status === ExternalStatus.Failed)
    return {
      type: 'followed-dub-ended',
      outcome: 'failed',
      measuredDuration: null,
      message: describeRemoteError(remote.error),
    };
  return null;
}

/** What a completed dub measured, from its details: the legacy list does not say (null if unknown). */
async function measuredOf(clients: Clients, job: JobRow, signal: AbortSignal): Promise<number | null> {
  if (!job.remote_id) return null;
  return clients.v2.get(job.remote_id, signal).then(
    (d) => d.measured_duration,
    () => null,
  );
}

/** A tracked dub missing from its list: its v2 details, or `gone` when the service no longer has it. */
async function details(clients: Clients, job: JobRow, signal: AbortSignal): Promise<DubV2 | 'gone'> {
  if (!job.remote_id) return 'gone';
  try {
    return await clients.v2.get(job.remote_id, signal);
  } catch (e) {
    if (e instanceof ApiError && e.kind === 'not-found') return 'gone';
    throw e;
  }
}
