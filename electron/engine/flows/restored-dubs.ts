import { ExternalStatus } from '../../../shared/api/common';
import type { ApiGeneration } from '../../../shared/contract/jobs';
import { DubdeskError } from '../../../shared/contract/errors';
import { serviceTime } from '../api/service-time';
import type { JobRow, JobStore } from '../db/jobs';
import type { UnclaimedDub } from '../db/restored-dubs';
import type { Clients, LeasedJob } from './context';
import { dubName } from './dub-name';

/** The service's clock may be this far off ours: dubs up to a day older than the backup are listed too. */
const CLOCK_MARGIN_MS = 24 * 3600_000;
/** Pages of the v2 list read after a restore, at most: 10,000 dubs. */
const MAX_PAGES = 100;

export interface AfterRestore {
  /** Dubs the service listed (since the backup, as far as its times tell). */
  listed: number;
  /** Of those, the ones no job of the restored queue owns: each goes to its file's job, not paid again. */
  unclaimed: UnclaimedDub[];
}

type Listed = Omit<UnclaimedDub, 'lists' | 'found_at'> & { lists: Set<ApiGeneration> };

/**
 * Every dub the service lists, from each list Dubdesk can read (v2 pages, the v1 list, the legacy list),
 * each with the lists it appears in. The v2 pages stop once they are past the backup by more than a day
 * of clock difference.
 */
async function listedSince(
  clients: Clients,
  signal: AbortSignal,
  since: number,
): Promise<Map<string, Listed>> {
  const out = new Map<string, Listed>();
  const add = (api: ApiGeneration, d: Omit<Listed, 'lists'>) => {
    const had = out.get(d.remote_id);
    if (had) had.lists.add(api);
    else out.set(d.remote_id, { ...d, lists: new Set([api]) });
  };
  for (let page = 1; page <= MAX_PAGES; page++) {
    const list = await clients.v2.list(page, 100, signal);
    let past = false;
    for (const d of list.dubs) {
      add('v2', {
        remote_id: d.id,
        name: d.name,
        dest_lang: d.dest_lang,
        source_lang: d.source_lang,
        studio: d.is_studio_quality ? 1 : 0,
        duration: d.duration,
        status: d.external_status_id,
      });
      const at = serviceTime(d.created_at);
      past ||= at !== null && at < since - CLOCK_MARGIN_MS;
    }
    if (past || page >= list.pagination.total_pages || list.order.length === 0) break;
  }
  const v1 = await clients.v1.list(signal);
  for (const d of v1.dubs)
    add('v1', {
      remote_id: d.id,
      name: d.name,
      dest_lang: d.destLang,
      source_lang: d.sourceLang,
      studio: d.isStudioQuality ? 1 : 0,
      duration: d.duration,
      status: d.externalStatusId,
    });
  for (const d of clients.legacy ? await clients.legacy.list(signal) : [])
    add('legacy', {
      remote_id: d.id,
      name: d.name,
      dest_lang: d.dest_lang,
      source_lang: d.source_lang,
      studio: null,
      duration: d.duration,
      status: d.externalStatusId,
    });
  return out;
}

/**
 * After `restore-db`, before anything is sent: the service is asked for its dubs, and each one no job of
 * the restored queue owns is kept for the job of its file (failed ones are charged nothing; one never
 * started, `Uploading`, cannot be taken). Null when no restore waits for it.
 */
export async function askAfterRestore(
  store: JobStore,
  clients: Clients,
  signal: AbortSignal,
  now = Date.now(),
): Promise<AfterRestore | null> {
  const pending = store.restored.pending();
  if (!pending) return null;
  const listed = await listedSince(clients, signal, pending.backupAt);
  const owned = store.restored.ownedIds();
  const unclaimed = [...listed.values()]
    .filter((d) => !owned.has(d.remote_id))
    .filter((d) => d.status !== ExternalStatus.Failed && d.status !== ExternalStatus.Uploading)
    .map((d): UnclaimedDub => ({ ...d, lists: [...d.lists].join(','), found_at: now }));
  store.restored.settle(unclaimed);
  return { listed: listed.size, unclaimed };
}

/**
 * Whether a kept dub is what this job would make: of its list, the same name (as Unicode; with its track
 * for a track other than the first, see dub-name.ts), language, source language, quality and duration hint
 * (legacy echoes it rounded up to whole seconds).
 */
function fits(d: UnclaimedDub, r: JobRow): boolean {
  if (!d.lists.split(',').includes(r.api)) return false;
  if (d.name.normalize('NFC') !== dubName(r).normalize('NFC') || d.dest_lang !== r.dest_lang) return false;
  if (d.source_lang !== null && d.source_lang !== r.source_lang) return false;
  if (d.studio !== null && d.studio !== r.studio) return false;
  if (d.duration === null || r.duration === null) return true;
  return Math.abs(d.duration - r.duration) < 1 || d.duration === Math.ceil(r.duration);
}

/**
 * Before a job creates its dub: a dub made before a restore, that it fits and no other job about to
 * create one fits, is taken (no new dub, nothing paid again). When several fit it, or it fits another
 * job too, nobody can tell whose it is: the job fails naming them and the account check, and those dubs
 * are never offered to it again (a retry then makes a new one). True when a dub was taken.
 */
export function takeRestored(store: JobStore, job: LeasedJob): boolean {
  if (!store.restored.hasUnclaimed()) return false;
  const row = job.row;
  const taken = store.reads.remoteIdsOwnedByOthers(row.id);
  const given = new Set(row.abandoned_remote_ids);
  const mine = store.restored
    .unclaimed()
    .filter((d) => !taken.has(d.remote_id) && !given.has(d.remote_id) && fits(d, row));
  const only = mine[0];
  if (!only) return false;
  const rivals =
    mine.length > 1
      ? []
      : store.restored.unsentOfLanguage(row.dest_lang, row.id).filter((r) => fits(only, r));
  if (mine.length === 1 && rivals.length === 0) {
    job.end({
      type: 'created',
      remoteId: only.remote_id,
      status: only.status,
      note: `dub ${only.remote_id}, made before the queue database was restored: taken, not paid for again`,
    });
    store.restored.drop(only.remote_id);
    return true;
  }
  const ids = mine.map((d) => d.remote_id);
  job.record({ abandoned_remote_ids: [...given, ...ids] });
  const others = rivals.length ? ` (so may ${rivals.map((r) => `job #${r.id}`).join(', ')})` : '';
  throw new DubdeskError(
    'service',
    `the service lists ${ids.length === 1 ? 'a dub' : 'dubs'} made before the queue database was restored that may be ${row.source_name}'s into ${row.dest_lang}${others}: ${ids.join(', ')}; Dubdesk cannot tell whose, so it sent nothing, so as not to pay twice`,
    {
      remedy:
        "Check the dubs in your account on the service. If none of them is this file's, retry the job: a new one is made (and charged).",
    },
  );
}
