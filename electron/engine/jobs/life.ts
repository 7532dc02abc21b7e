import type { JobState } from '../../../shared/contract/jobs';
import type { AnyPatch, JobRow, JobStore, NewJob, Placing, WriteGuard } from '../db/jobs';
import { LeaseLostError } from '../db/jobs';
import type { LifeEvent, LifeEventType } from './life-events';
import { COPY_WAKERS, RULES, WAKES_WAITERS, type Rule } from './life-rules';

export type { LifeEvent, LifeEventType } from './life-events';
export { canApply } from './life-rules';

export class IllegalTransitionError extends Error {
  constructor(
    readonly id: number,
    readonly state: JobState,
    readonly event: LifeEventType,
  ) {
    super(`job ${id} is ${state}: cannot ${event}`);
    this.name = 'IllegalTransitionError';
  }
}

/** Events that keep the job's state but say something its history keeps. */
const NOTED: readonly LifeEvent['type'][] = [
  'link-refused',
  'followed-dub-ended',
  'made-after-cancel',
  'audio-staged',
  'send-whole',
  'rebuilt',
];
/**
 * Applies one event to one job under a guard (the worker's token, the poller, or a user), atomically with
 * its history entry. Returns the new row. Throws LeaseLostError when the writer no longer holds the job,
 * IllegalTransitionError when the event does not apply to its state.
 */
export function transition(
  store: JobStore,
  id: number,
  guard: WriteGuard,
  event: LifeEvent,
  now = Date.now(),
  /** Written in the same transaction, after the change (what the step recorded last, e.g. its output). */
  also?: () => void,
): JobRow {
  return store.tx(applyEvent, store, id, guard, event, now, also);
}

function applyEvent(
  store: JobStore,
  id: number,
  guard: WriteGuard,
  event: LifeEvent,
  now: number,
  also: (() => void) | undefined,
): JobRow {
  const row = store.reads.get(id);
  if (!row) throw new LeaseLostError(id);
  if (typeof guard === 'object' && row.lease_token !== guard.token) throw new LeaseLostError(id);
  const rule = RULES[event.type] as Rule<LifeEventType>;
  if (!rule.from.includes(row.state)) {
    if (guard === 'user') throw new IllegalTransitionError(id, row.state, event.type);
    throw new LeaseLostError(id); // someone moved it on meanwhile
  }
  const { to, patch, reason = null } = rule.apply(row, event as never, now);
  const full: AnyPatch = { ...patch, state: to };
  if (guard === 'user') store.leases.revoke(id);
  const after: JobRow = {
    ...row,
    ...full,
    updated_at: now,
    lease_token: guard === 'user' ? null : row.lease_token,
  };
  store.writes.write(id, guard === 'user' ? 'user' : guard, full, now, after);
  // History: every change of state, and each new reason to wait; not every poll or retry of the same wait.
  const waits = event.type === 'wait' || event.type === 'halt' || event.type === 'await-first-upload';
  const newWait = waits && row.waiting !== patch.waiting;
  const note = NOTED.includes(event.type);
  if (to !== row.state || newWait || note) store.history.append(id, now, row.state, to, event.type, reason);
  if (to !== row.state && WAKES_WAITERS.includes(to)) store.writes.wakeFirstUploadWaiters(row.source);
  if (to !== row.state && COPY_WAKERS.includes(to)) store.sameContent.wakeCopyWaiters(row);
  also?.();
  return after;
}

/**
 * A pause asked of a job a worker holds: it takes effect once the worker finishes the HTTP step it is in.
 * The caller saw the lease before this transaction; if the worker gave the job back since (its step ended),
 * the job is paused now: a pending pause on a job nobody holds would keep it from being claimed for ever.
 */
export function requestPause(store: JobStore, id: number, now = Date.now()): JobRow {
  return store.tx(() => {
    const row = store.reads.get(id);
    if (!row) throw new LeaseLostError(id);
    if (!row.lease_token) return transition(store, id, 'user', { type: 'pause' }, now);
    if (!['uploading', 'downloading', 'queued', 'submitted', 'processing'].includes(row.state))
      throw new IllegalTransitionError(id, row.state, 'pause');
    store.writes.write(
      id,
      'user',
      { pause_requested: 1, waiting: 'pausing after the current step', waiting_code: 'pausing' },
      now,
    );
    store.history.append(
      id,
      now,
      row.state,
      row.state,
      'pause-requested',
      'finishing the current step first',
    );
    return {
      ...row,
      pause_requested: 1,
      waiting: 'pausing after the current step',
      waiting_code: 'pausing',
    };
  });
}

/** Takes back a pause the worker has not reached yet. */
export function cancelPauseRequest(store: JobStore, id: number, now = Date.now()): JobRow {
  const row = store.reads.get(id);
  if (!row) throw new LeaseLostError(id);
  store.writes.write(id, 'user', { pause_requested: 0, waiting: null, waiting_code: null }, now);
  return { ...row, pause_requested: 0, waiting: null, waiting_code: null };
}

/** A new job enters its life queued, with a first history entry. */
export function enqueue(
  store: JobStore,
  job: NewJob,
  reason: string | null,
  now = Date.now(),
  notify = true,
): number {
  const id = store.writes.insert(job, now);
  store.history.append(id, now, null, 'queued', 'added', reason, notify);
  return id;
}

/** `enqueue`, unless a live job of the same source and language is there already: null then. */
export function enqueueUnlessLive(store: JobStore, job: NewJob, now: number, notify: boolean): number | null {
  const id = store.writes.insertUnlessLive(job, now);
  if (id !== null) store.history.append(id, now, null, 'queued', 'added', null, notify);
  return id;
}

/** `enqueueUnlessLive` for many jobs, in a few statements (a big add): each job's id, or null. */
export function enqueueManyUnlessLive(
  store: JobStore,
  jobs: readonly NewJob[],
  now: number,
  notify: boolean,
  placing?: Placing,
): (number | null)[] {
  const ids = store.writes.insertManyUnlessLive(jobs, now, placing);
  store.history.appendMany(
    ids.filter((id) => id !== null),
    now,
    null,
    'queued',
    'added',
    null,
    notify,
  );
  return ids;
}

/**
 * Jobs waiting out a network backoff become due now (the machine woke up, the network is back): their wait
 * is over, their state and history stay as they are.
 */
export function endNetworkWaits(store: JobStore, service: string, now = Date.now()): number {
  return store.writes.endNetworkWaits(service, now);
}

/**
 * The wall clock stepped back `backMs` (see `runner/clock-steps.ts`): every job still waiting (a backoff, a
 * network wait) is due `backMs` sooner on the clock, so its wait keeps its length. Returns how many.
 */
export function shiftWaits(store: JobStore, backMs: number, now = Date.now()): number {
  return store.writes.shiftWaits(backMs, now);
}
