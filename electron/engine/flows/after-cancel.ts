import { ExternalStatus } from '../../../shared/api/common';
import { LeaseLostError, type JobRow, type JobStore } from '../db/jobs';
import { transition, type LifeEvent } from '../jobs/life';
import { ApiError } from '../api/errors';
import type { Clients } from './context';
import { createFields } from './create-mark';
import { lookUp, unsureWhy } from './lookup';

/**
 * A create aborted by the cancel may still be finished by the service a moment later (its whole request had
 * arrived): "no dub" is believed only once the cancel is this old. A dub found is taken at once.
 */
const NONE_AFTER_MS = 15_000;

type Settled = Extract<LifeEvent, { type: 'made-after-cancel' }>;

/**
 * Jobs canceled while their create (v2) or start (v1, legacy) was under way: the service may have made the
 * dub, and charges it when it completes. Each is looked up as a lost answer's would be (v2), or by its id
 * in the list (v1, legacy: started once it left `Uploading`), and then followed like a job canceled after
 * its dub started, or settled as made of nothing. `busy`: jobs a worker of this process still holds.
 */
export async function settleCanceledCreates(
  store: JobStore,
  clients: Clients,
  service: string,
  signal: AbortSignal,
  busy: (id: number) => boolean,
  now = Date.now(),
): Promise<JobRow[]> {
  const rows = store.canceledCreates.of(service).filter((r) => !busy(r.id));
  const statuses = new Map<'v1' | 'legacy', Promise<Map<string, number | null>>>();
  const listOf = (api: 'v1' | 'legacy') => {
    let list = statuses.get(api);
    if (!list) statuses.set(api, (list = startedStatuses(clients, api, signal)));
    return list;
  };
  const changed: JobRow[] = [];
  for (const row of rows) {
    if (row.api === 'legacy' && !clients.legacy) continue;
    const event =
      row.api === 'v2'
        ? await settleV2(store, clients, signal, row)
        : await settleByList(row, listOf(row.api));
    if (!event || (event.remoteId === null && !event.unsure && now - row.updated_at < NONE_AFTER_MS))
      continue;
    try {
      changed.push(transition(store, row.id, 'after-cancel', event));
    } catch (e) {
      if (!(e instanceof LeaseLostError)) throw e; // retried meanwhile: the submit step looks for it now
    }
  }
  return changed;
}

async function settleV2(
  store: JobStore,
  clients: Clients,
  signal: AbortSignal,
  row: JobRow,
): Promise<Settled> {
  const checkpoint = () => {
    if (signal.aborted) throw new ApiError('canceled', 'stopping');
  };
  const verdict = await lookUp({ store, clients, signal, checkpoint }, row, createFields(row));
  if (verdict.kind === 'found')
    return { type: 'made-after-cancel', remoteId: verdict.found.id, status: verdict.found.status };
  if (verdict.kind === 'none') return { type: 'made-after-cancel', remoteId: null, status: null };
  return {
    type: 'made-after-cancel',
    remoteId: null,
    status: null,
    unsure: `${unsureWhy(row, verdict.ids)}: the service may charge for one of them; check the dubs in your account there`,
  };
}

async function settleByList(
  row: JobRow,
  statuses: Promise<Map<string, number | null>>,
): Promise<Settled | null> {
  const listed = row.remote_id ? (await statuses).get(row.remote_id) : undefined;
  if (listed === undefined || listed === ExternalStatus.Uploading)
    return { type: 'made-after-cancel', remoteId: null, status: null };
  return { type: 'made-after-cancel', remoteId: row.remote_id, status: listed };
}

/** The v1 or legacy list as id -> status (null: listed in a shape Dubdesk refuses, so made all the same). */
async function startedStatuses(
  clients: Clients,
  api: 'v1' | 'legacy',
  signal: AbortSignal,
): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  if (api === 'v1') {
    const list = await clients.v1.list(signal);
    for (const d of list.dubs) out.set(d.id, d.externalStatusId);
    for (const r of list.refused) out.set(r.id, null);
  } else if (clients.legacy) {
    for (const d of await clients.legacy.list(signal)) out.set(d.id, d.externalStatusId);
  }
  return out;
}

/** A worker's create answered after its job was canceled: the canceled job holds that dub from now on. */
export function madeAfterCancel(store: JobStore, id: number, remoteId: string, status: number | null): void {
  try {
    transition(store, id, 'after-cancel', { type: 'made-after-cancel', remoteId, status });
  } catch (e) {
    if (!(e instanceof LeaseLostError)) throw e; // not canceled: retried, or moved on meanwhile
  }
}
