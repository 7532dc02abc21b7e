import { creditsFor } from '../../../shared/credits';
import type { JobState } from '../../../shared/contract/jobs';
import type { AnyPatch, JobRow } from '../db/jobs';
import type { LifeEvent, LifeEventType } from './life-events';

type Of<T extends LifeEventType> = Extract<LifeEvent, { type: T }>;

export interface Rule<T extends LifeEventType> {
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
export const WAKES_WAITERS: readonly JobState[] = ['downloading', 'failed', 'canceled', 'paused'];
/** Leaving for one of these, a job no longer dubs its content: copies waiting for its results look again. */
export const COPY_WAKERS: readonly JobState[] = ['completed', 'failed', 'canceled'];

function createdReason(r: JobRow, remoteId: string): string {
  if (r.made_from === 'link')
    return `dub ${remoteId}, made from the uploaded copy${r.donor_remote_id ? ` (of dub ${r.donor_remote_id})` : ''}`;
  return `dub ${remoteId}`;
}
const noWait = { waiting: null, waiting_code: null } as const;

/** Whether a retry of `r` gives up the dub it made (failed or vanished on the service) for a new one. */
function retryDropsDub(r: JobRow): boolean {
  const endedAfterCancel = r.state === 'canceled' && r.remote_status === 4;
  return r.error_code === 'remote-failed' || r.error_code === 'remote-missing' || endedAfterCancel;
}

/**
 * Whether retrying a failed or canceled job makes (and so pays for) a dub: none was made yet (its create or
 * start was never sent, or not known to have been), or the one made failed or vanished. A retry of one whose
 * dub the service made fetches that dub, whose one charge is the service's whether it is retried or not.
 */
export function retryPays(r: JobRow): boolean {
  if (r.credits_charged !== null) return false;
  return r.step === 'submit' || retryDropsDub(r);
}

type DubEnded = Of<'followed-dub-ended'>;

function canceledDubEnded(r: JobRow, e: DubEnded): ReturnType<Rule<'followed-dub-ended'>['apply']> {
  if (e.outcome !== 'completed')
    return {
      to: 'canceled',
      patch: { remote_status: 4 },
      reason: `the canceled dub ${e.outcome === 'failed' ? 'failed' : 'is no longer'} on the service: nothing charged`,
    };
  const credits = e.measuredDuration === null ? null : creditsFor(e.measuredDuration, r.studio === 1);
  return {
    to: 'canceled',
    patch: { remote_status: 5, measured_duration: e.measuredDuration, credits_charged: credits },
    reason: `the service charged ${credits === null ? 'its credits' : `${credits} cr`} for this canceled dub (it completed after the cancel); retry fetches its results at no further charge`,
  };
}

/**
 * A dub the service completed: its results are to be fetched, and it is charged now (the service charges
 * at completion), whatever happens to the download.
 */
function completedAtService(r: JobRow, measuredDuration: number | null) {
  return {
    step: 'fetch',
    remote_status: 5,
    progress: 0,
    next_run_at: 0,
    attempts: 0,
    measured_duration: measuredDuration,
    credits_charged: measuredDuration === null ? null : creditsFor(measuredDuration, r.studio === 1),
  } as const;
}

/**
 * A paused job's dub ended on the service (which has no pause): completed, it is charged and its results
 * wait, still paused, to be downloaded on resume; failed or gone, the job failed as it would have unpaused.
 */
function pausedDubEnded(r: JobRow, e: DubEnded): ReturnType<Rule<'followed-dub-ended'>['apply']> {
  if (e.outcome === 'completed') {
    const patch = completedAtService(r, e.measuredDuration);
    const credits = patch.credits_charged;
    return {
      to: 'paused',
      patch,
      reason: `done at the service while paused: charged ${credits === null ? 'its credits' : `${credits} cr`}; its download waits for resume`,
    };
  }
  if (e.outcome === 'failed')
    return RULES['remote-failed'].apply(
      r,
      {
        type: 'remote-failed',
        message: e.message ?? 'the dub failed on the service',
      },
      0,
    );
  return RULES['remote-missing'].apply(r, { type: 'remote-missing' }, 0);
}

/** For each event: the states it may happen in, the state it leads to, and what is recorded. */
export const RULES: { [T in LifeEventType]: Rule<T> } = {
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
  'audio-staged': {
    from: ['uploading'],
    apply: (_r, e) => ({ to: 'uploading', patch: {}, reason: e.note }),
  },
  'send-whole': {
    from: ['uploading'],
    apply: (r, e) => ({
      to: 'uploading',
      // Billed as the whole file now: the job's length is no less than the file's, as the estimate would be.
      patch: { send: 'file', staged_audio: null, staged_type: null, ...wholeLength(r.duration, e.seconds) },
      reason: `sends the whole file: ${e.why}`,
    }),
  },
  rebuilt: {
    from: ['downloading'],
    apply: (_r, e) => ({ to: 'downloading', patch: {}, reason: e.note }),
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
      reason: e.note ?? createdReason(r, e.remoteId),
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
      patch: { ...completedAtService(r, e.measuredDuration), ...noWait },
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
  copied: {
    from: ['queued', 'uploading'],
    apply: (_r, e, now) => ({
      to: 'completed',
      patch: {
        step: 'done',
        progress: 100,
        completed_at: now,
        measured_duration: e.measuredDuration,
        credits_charged: 0,
        copied_from: e.from,
        ...noWait,
        ...noError,
      },
      reason: `copied from ${e.from} (job #${e.fromJob}), no charge`,
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
    apply: (r, e) => {
      const failed = {
        error: e.error.message,
        error_code: e.error.code,
        error_remedy: e.error.remedy ?? null,
        ...noWait,
      };
      if (!e.completedAtService) return { to: 'failed', patch: failed, reason: e.error.message };
      const measured = e.completedAtService.measuredDuration;
      const credits = measured === null ? null : creditsFor(measured, r.studio === 1);
      return {
        to: 'failed',
        patch: { ...failed, remote_status: 5, measured_duration: measured, credits_charged: credits },
        reason: `${e.error.message}; the service charged ${credits === null ? 'its credits (see your account there)' : `${credits} cr`} for it`,
      };
    },
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
  'followed-dub-ended': {
    from: ['canceled', 'paused'],
    apply: (r, e) => (r.state === 'paused' ? pausedDubEnded(r, e) : canceledDubEnded(r, e)),
  },
  'made-after-cancel': {
    from: ['canceled'],
    apply: (_r, e) => {
      if (e.remoteId === null)
        return {
          to: 'canceled',
          patch: { create_pending: 0 },
          reason:
            e.unsure ??
            'its create was under way when it was canceled; the service made no dub of it: nothing is charged',
        };
      return {
        to: 'canceled',
        patch: {
          step: 'track',
          remote_id: e.remoteId,
          // An ended dub (completed: charged) is left for the follow-up read, which records its end and charge:
          // a status that says it ended would keep the job out of the polls that record them.
          remote_status: e.status === 4 || e.status === 5 ? null : e.status,
          create_pending: 0,
          uploaded: 1,
        },
        reason: `the service made dub ${e.remoteId} all the same (its create was under way when the job was canceled): followed until it ends, and charged if it completes; a retry, or adding the file again, fetches it at no further charge`,
      };
    },
  },
  retry: {
    from: ['failed', 'canceled'],
    apply: (r) => {
      const reset = { attempts: 0, next_run_at: 0, pause_requested: 0, ...noWait, ...noError };
      if (retryDropsDub(r)) {
        // The dub failed or vanished on the service: make a new one, and never adopt the old one again.
        const abandoned = [...r.abandoned_remote_ids, ...(r.remote_id ? [r.remote_id] : [])];
        return {
          to: 'queued',
          patch: {
            ...reset,
            step: 'submit',
            abandoned_remote_ids: abandoned,
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

/** The length a job sending the whole file is billed: the file's, where it is longer than its sound's. */
function wholeLength(estimated: number | null, whole: number | null): { duration?: number } {
  if (whole === null) return {};
  return { duration: estimated === null ? whole : Math.max(estimated, whole) };
}
