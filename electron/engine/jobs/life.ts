import { creditsFor } from '../../../shared/credits';
import type { ContractError } from '../../../shared/contract/errors';
import type { JobState, Waiting } from '../../../shared/contract/jobs';
import type { AnyPatch, JobRow, JobStore, NewJob, WriteGuard } from '../db/jobs';
import { LeaseLostError } from '../db/jobs';

/**
 * A job's whole life in one table: for each event, the states it may happen in, the state it leads to, and
 * what is recorded. Nothing else writes `state`, `step`, `waiting` or `error` (the store refuses them in
 * `record`), and every change of state appends to `job_history`.
 *
 *   queued --begin-upload--> uploading --created--> submitted/processing --remote-completed--> downloading
 *     --downloaded--> completed;  any live state --fail--> failed;  user: cancel, retry, pause, resume.
 */
export type LifeEvent =
  /** A worker took a queued job to upload and create its dub. */
  | { type: 'begin-upload' }
  /**
   * Upload once: another language of the same file is being uploaded or dubbed; this one is made from the
   * service's copy once that dub completes (its siblings wake it then; `runAt` is only a safety net).
   */
  | { type: 'await-first-upload'; message: string; runAt: number }
  /** The service refused another dub's `original` link as a source: this job uploads the file itself. */
  | { type: 'link-refused'; message: string }
  /** The service made the dub (or a lost create was found, or a start answered 409: it is ours). */
  | { type: 'created'; remoteId: string; status: number | null }
  /** A poll saw the dub still in the service's queue or processing. */
  | { type: 'remote-progress'; status: number; progress: number }
  /** A poll saw the dub completed: the service charged it; download next. */
  | { type: 'remote-completed'; measuredDuration: number | null }
  /** A download worker found the dub not completed after all: back to polling. */
  | { type: 'not-completed' }
  | { type: 'remote-failed'; message: string }
  | { type: 'remote-missing' }
  /** Every wanted output is on disk. */
  | { type: 'downloaded'; measuredDuration: number | null }
  /** A step failed in a way worth trying again later; `waiting` says why, `runAt` when. */
  | { type: 'wait'; waiting: Omit<Waiting, 'retryAt' | 'attempt'>; runAt: number; attempts: number }
  /** The whole queue stops for this (a rejected key, no credits): the job waits without counting attempts. */
  | { type: 'halt'; waiting: Omit<Waiting, 'retryAt' | 'attempt'> }
  | { type: 'fail'; error: ContractError }
  /** The worker stopped between two HTTP steps (shutdown, queue paused): back to where it waits. */
  | { type: 'interrupted' }
  /** The worker stopped between two HTTP steps because the user paused this job. */
  | { type: 'paused-at-step' }
  | { type: 'cancel' }
  | { type: 'retry' }
  | { type: 'pause' }
  | { type: 'resume' };
export type LifeEventType = LifeEvent['type'];

type Of<T extends LifeEventType> = Extract<LifeEvent, { type: T }>;

interface Rule<T extends LifeEventType> {
  from: readonly JobState[];
  /** The next state and what to record; `reason` goes into the history. */
  apply(row: JobRow, e: Of<T>, now: number): { to: JobState; patch: AnyPatch; reason?: string | null };
}

const LIVE: readonly JobState[] = ['queued', 'uploading', 'submitted', 'processing', 'downloading'];
const TRACKED: readonly JobState[] = ['submitted', 'processing'];

/** Where a job with this step waits when nobody works it. */
function idleState(row: JobRow): JobState {
  if (row.step === 'submit') return 'queued';
  if (row.step === 'fetch') return 'downloading';
  if (row.step === 'done') return 'completed';
  return (row.remote_status ?? 2) >= 3 ? 'processing' : 'submitted';
}

const noError = { error: null, error_code: null, error_remedy: null } as const;
/** Leaving for one of these, a job no longer carries its file's first upload: waiting siblings look again. */
const WAKES_WAITERS: readonly JobState[] = ['downloading', 'failed', 'canceled', 'paused'];

function createdReason(r: JobRow, remoteId: string): string {
  if (r.made_from === 'link')
    return `dub ${remoteId}, made from the uploaded copy${r.donor_remote_id ? ` (of dub ${r.donor_remote_id})` : ''}`;
  return `dub ${remoteId}`;
}
const noWait = { waiting: null, waiting_code: null } as const;

const RULES: { [T in LifeEventType]: Rule<T> } = {
  'begin-upload': {
    from: ['queued'],
    apply: () => ({ to: 'uploading', patch: { ...noWait } }),
  },
  'await-first-upload': {
    from: ['queued', 'uploading'],
    apply: (_r, e) => ({
      to: 'queued',
      patch: { next_run_at: e.runAt, waiting: e.message, waiting_code: 'first-upload' },
      reason: e.message,
    }),
  },
  'link-refused': {
    from: ['uploading'],
    apply: (_r, e) => ({
      to: 'uploading',
      patch: { link_refused: 1 },
      reason: `the service refused the link: uploaded instead (${e.message})`,
    }),
  },
  created: {
    from: ['uploading'],
    apply: (r, e) => ({
      to: e.status !== null && e.status >= 3 ? 'processing' : 'submitted',
      patch: {
        step: 'track',
        remote_id: e.remoteId,
        remote_status: e.status,
        create_pending: 0,
        uploaded: 1,
        progress: 0,
        attempts: 0,
        ...noWait,
        ...noError,
      },
      reason: createdReason(r, e.remoteId),
    }),
  },
  'remote-progress': {
    from: TRACKED,
    apply: (_r, e) => ({
      to: e.status >= 3 ? 'processing' : 'submitted',
      patch: { remote_status: e.status, progress: e.progress, ...noWait },
    }),
  },
  'remote-completed': {
    from: TRACKED,
    apply: (r, e) => ({
      to: 'downloading',
      patch: {
        step: 'fetch',
        remote_status: 5,
        progress: 0,
        next_run_at: 0,
        attempts: 0,
        measured_duration: e.measuredDuration,
        // The service charges when the dub completes: count it now, whatever happens to the download.
        credits_charged: e.measuredDuration === null ? null : creditsFor(e.measuredDuration, r.studio === 1),
        ...noWait,
      },
    }),
  },
  'not-completed': {
    from: ['downloading'],
    apply: () => ({ to: 'processing', patch: { step: 'track', ...noWait } }),
  },
  'remote-failed': {
    from: [...TRACKED, 'downloading'],
    apply: (_r, e) => ({
      to: 'failed',
      patch: {
        remote_status: 4,
        error: e.message,
        error_code: 'remote-failed',
        error_remedy: 'Retry to dub it again (a failed dub is not charged).',
        ...noWait,
      },
      reason: e.message,
    }),
  },
  'remote-missing': {
    from: [...TRACKED, 'downloading'],
    apply: () => ({
      to: 'failed',
      patch: {
        error: 'the dub is no longer on the service (deleted?)',
        error_code: 'remote-missing',
        error_remedy: 'Retry to dub it again.',
        ...noWait,
      },
      reason: 'the dub is no longer on the service',
    }),
  },
  downloaded: {
    from: ['downloading'],
    apply: (r, e, now) => {
      const measured = e.measuredDuration ?? r.measured_duration;
      return {
        to: 'completed',
        patch: {
          step: 'done',
          progress: 100,
          completed_at: now,
          measured_duration: measured,
          credits_charged: measured === null ? r.credits_charged : creditsFor(measured, r.studio === 1),
          ...noWait,
          ...noError,
        },
      };
    },
  },
  wait: {
    from: LIVE,
    apply: (r, e) => ({
      to: r.state === 'uploading' ? 'queued' : r.state,
      patch: {
        attempts: e.attempts,
        next_run_at: e.runAt,
        waiting: e.waiting.message,
        waiting_code: e.waiting.code,
      },
      reason: e.waiting.message,
    }),
  },
  halt: {
    from: LIVE,
    apply: (r, e) => ({
      to: r.state === 'uploading' ? 'queued' : r.state,
      patch: { waiting: e.waiting.message, waiting_code: e.waiting.code },
      reason: e.waiting.message,
    }),
  },
  fail: {
    from: [...LIVE, 'paused'],
    apply: (_r, e) => ({
      to: 'failed',
      patch: {
        error: e.error.message,
        error_code: e.error.code,
        error_remedy: e.error.remedy ?? null,
        ...noWait,
      },
      reason: e.error.message,
    }),
  },
  interrupted: {
    from: LIVE,
    apply: (r) => ({ to: r.state === 'uploading' ? 'queued' : r.state, patch: { ...noWait } }),
  },
  'paused-at-step': {
    from: LIVE,
    apply: () => ({ to: 'paused', patch: { pause_requested: 0, ...noWait } }),
  },
  cancel: {
    from: [...LIVE, 'paused', 'failed'],
    apply: () => ({ to: 'canceled', patch: { pause_requested: 0, ...noWait } }),
  },
  retry: {
    from: ['failed', 'canceled'],
    apply: (r) => {
      const reset = { attempts: 0, next_run_at: 0, pause_requested: 0, ...noWait, ...noError };
      if (r.error_code === 'remote-failed' || r.error_code === 'remote-missing') {
        // The dub failed or vanished on the service: make a new one, and never adopt the old one again.
        const abandoned = [
          ...(JSON.parse(r.abandoned_remote_ids) as string[]),
          ...(r.remote_id ? [r.remote_id] : []),
        ];
        return {
          to: 'queued',
          patch: {
            ...reset,
            step: 'submit',
            abandoned_remote_ids: JSON.stringify(abandoned),
            remote_id: null,
            upload_url: null,
            upload_expires_at: null,
            uploaded: 0,
            create_pending: 0,
            made_from: null,
            donor_remote_id: null,
            link_refused: 0,
            remote_status: null,
            progress: 0,
            completed_at: null,
            measured_duration: null,
            credits_charged: null,
          },
          reason: 'a new dub will be made',
        };
      }
      // Anything else resumes where it stopped: a dub the service already made is fetched, not paid twice.
      return { to: idleState(r), patch: reset };
    },
  },
  pause: {
    from: ['queued', 'submitted', 'processing', 'downloading'],
    apply: () => ({ to: 'paused', patch: { pause_requested: 0, ...noWait } }),
  },
  resume: {
    from: ['paused'],
    apply: (r) => ({
      to: idleState(r),
      patch: { pause_requested: 0, attempts: 0, next_run_at: 0, ...noWait },
    }),
  },
};

export function canApply(state: JobState, type: LifeEventType): boolean {
  return RULES[type].from.includes(state);
}

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
  {
    const row = store.get(id);
    if (!row) throw new LeaseLostError(id);
    if (typeof guard === 'object' && row.lease_token !== guard.token) throw new LeaseLostError(id);
    const rule = RULES[event.type] as Rule<LifeEventType>;
    if (!rule.from.includes(row.state)) {
      if (guard === 'user') throw new IllegalTransitionError(id, row.state, event.type);
      throw new LeaseLostError(id); // someone moved it on meanwhile
    }
    const { to, patch, reason = null } = rule.apply(row, event as never, now);
    const full: AnyPatch = { ...patch, state: to };
    if (guard === 'user') store.revoke(id);
    store.write(id, guard === 'user' ? 'user' : guard, full, now);
    // History: every change of state, and each new reason to wait; not every poll or retry of the same wait.
    const waits = event.type === 'wait' || event.type === 'halt' || event.type === 'await-first-upload';
    const newWait = waits && row.waiting !== patch.waiting;
    const note = event.type === 'link-refused';
    if (to !== row.state || newWait || note) store.appendHistory(id, now, row.state, to, event.type, reason);
    if (to !== row.state && WAKES_WAITERS.includes(to)) store.wakeFirstUploadWaiters(row.source);
    also?.();
    return { ...row, ...full, updated_at: now, lease_token: guard === 'user' ? null : row.lease_token };
  }
}

/**
 * A pause asked of a job a worker holds: it takes effect once the worker finishes the HTTP step it is in.
 * The caller saw the lease before this transaction; if the worker gave the job back since (its step ended),
 * the job is paused now: a pending pause on a job nobody holds would keep it from being claimed for ever.
 */
export function requestPause(store: JobStore, id: number, now = Date.now()): JobRow {
  return store.db
    .transaction(() => {
      const row = store.get(id);
      if (!row) throw new LeaseLostError(id);
      if (!row.lease_token) return transition(store, id, 'user', { type: 'pause' }, now);
      if (!['uploading', 'downloading', 'queued', 'submitted', 'processing'].includes(row.state))
        throw new IllegalTransitionError(id, row.state, 'pause');
      store.write(
        id,
        'user',
        { pause_requested: 1, waiting: 'pausing after the current step', waiting_code: 'pausing' },
        now,
      );
      store.appendHistory(
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
    })
    .immediate();
}

/** Takes back a pause the worker has not reached yet. */
export function cancelPauseRequest(store: JobStore, id: number, now = Date.now()): JobRow {
  const row = store.get(id);
  if (!row) throw new LeaseLostError(id);
  store.write(id, 'user', { pause_requested: 0, waiting: null, waiting_code: null }, now);
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
  const id = store.insert(job, now);
  store.appendHistory(id, now, null, 'queued', 'added', reason, notify);
  return id;
}

/** `enqueue`, unless a live job of the same source and language is there already: null then. */
export function enqueueUnlessLive(store: JobStore, job: NewJob, now: number, notify: boolean): number | null {
  const id = store.insertUnlessLive(job, now);
  if (id !== null) store.appendHistory(id, now, null, 'queued', 'added', null, notify);
  return id;
}

/**
 * Jobs waiting out a network backoff become due now (the machine woke up, the network is back): their wait
 * is over, their state and history stay as they are.
 */
export function endNetworkWaits(store: JobStore, service: string, now = Date.now()): number {
  return store.db
    .prepare(
      `UPDATE jobs SET next_run_at = @now WHERE waiting_code = 'offline' AND next_run_at > @now
         AND lease_token IS NULL AND step IN ('submit', 'fetch') AND service IN (@service, '')`,
    )
    .run({ now, service }).changes;
}
