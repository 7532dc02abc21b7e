import type { ActionResult } from '../../../../shared/contract/jobs';
import { isTerminal } from '../../../../shared/contract/jobs';
import type { ContractError } from '../../../../shared/contract/errors';
import type { JobRow, JobStore } from '../../db/jobs';
import { LeaseLostError } from '../../db/jobs';
import { cancelPauseRequest, IllegalTransitionError, requestPause, transition } from '../../jobs/life';

export type Action = 'retry' | 'cancel' | 'pause' | 'resume' | 'clear';

const conflict = (message: string): ContractError => ({ code: 'conflict', message });

/**
 * One user action on one job. Returns the changed row, or why it does not apply. Running work is never
 * cut mid-step by a pause: the worker finishes the HTTP step it is in (`requestPause`).
 */
function actOn(store: JobStore, row: JobRow, action: Exclude<Action, 'clear'>): JobRow | ContractError {
  const id = row.id;
  switch (action) {
    case 'retry':
      if (row.state === 'completed')
        return {
          ...conflict(
            `job ${id} is completed; only failed or canceled jobs can be retried (a dub is made and paid for once)`,
          ),
          remedy:
            'To have its files in another folder, retry it with --out DIR (in the app: "Move its files to this folder"): they move there, at no charge. To dub it again (charged), add its source with --again.',
        };
      if (row.state !== 'failed' && row.state !== 'canceled')
        return conflict(`job ${id} is ${row.state}; only failed or canceled jobs can be retried`);
      return transition(store, id, 'user', { type: 'retry' });
    case 'cancel':
      if (row.state === 'completed' || row.state === 'canceled')
        return conflict(`job ${id} is already ${row.state}`);
      return transition(store, id, 'user', { type: 'cancel' });
    case 'pause':
      if (row.state === 'paused' || row.pause_requested) return conflict(`job ${id} is already paused`);
      if (isTerminal(row.state)) return conflict(`job ${id} is ${row.state}; there is nothing to pause`);
      // A worker holds it: the pause waits for the end of the HTTP step in progress.
      if (row.lease_token) return requestPause(store, id);
      return transition(store, id, 'user', { type: 'pause' });
    case 'resume':
      if (row.pause_requested && row.state !== 'paused') return cancelPauseRequest(store, id);
      if (row.state !== 'paused') return conflict(`job ${id} is ${row.state}, not paused`);
      return transition(store, id, 'user', { type: 'resume' });
  }
}

/** Applies an action to each job; `changed` tells the caller about each job that moved. */
export function applyAction(
  store: JobStore,
  ids: readonly number[],
  action: Action,
  changed: (row: JobRow) => void,
): ActionResult & { removed: number[] } {
  const result: ActionResult & { removed: number[] } = { changed: [], skipped: [], removed: [] };
  if (action === 'clear') {
    const rows = ids.map((id) => ({ id, row: store.reads.shown(id) }));
    const finished = rows.filter((r) => r.row && isTerminal(r.row.state)).map((r) => r.id);
    result.removed = store.writes.remove(finished);
    result.changed = result.removed;
    for (const r of rows) {
      if (!r.row) result.skipped.push({ id: r.id, error: { code: 'not-found', message: `no job ${r.id}` } });
      else if (!result.removed.includes(r.id))
        result.skipped.push({
          id: r.id,
          error: conflict(`job ${r.id} is ${r.row.state}; only finished jobs can be cleared`),
        });
    }
    return result;
  }
  for (const id of ids) {
    const row = store.reads.shown(id);
    if (!row) {
      result.skipped.push({ id, error: { code: 'not-found', message: `no job ${id}` } });
      continue;
    }
    try {
      const out = actOn(store, row, action);
      if ('code' in out && !('id' in out)) result.skipped.push({ id, error: out });
      else {
        result.changed.push(id);
        changed(out as JobRow);
      }
    } catch (e) {
      if (e instanceof IllegalTransitionError || e instanceof LeaseLostError)
        result.skipped.push({ id, error: conflict(`job ${id} changed meanwhile; try again`) });
      else throw e;
    }
  }
  return result;
}
