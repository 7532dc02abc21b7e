import type { ContractError } from '../../../shared/contract/errors';
import type { Waiting } from '../../../shared/contract/jobs';

/**
 * What can happen to a job. `life-rules.ts` is its whole life in one table: for each event, the states it
 * may happen in, the state it leads to, and what is recorded; `life.ts` applies it. Nothing else writes `state`, `step`, `waiting` or `error` (the store refuses them in
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
  /** The audio path: the source's sound was extracted to send (`note` says what and how big). */
  | { type: 'audio-staged'; note: string }
  /** The audio path cannot be taken for this job (no ffmpeg, no sound…): it sends the whole file. */
  /** `seconds`: the whole file's length, what the service will now bill (null: unknown). */
  | { type: 'send-whole'; why: string; seconds: number | null }
  /** The audio path: the dubbed video was made here from the source's picture and the dubbed sound. */
  | { type: 'rebuilt'; note: string }
  /** The service made the dub (or a lost create was found, or a start answered 409: it is ours). */
  | { type: 'created'; remoteId: string; status: number | null; note?: string }
  /** A poll saw the dub still in the service's queue or processing. */
  | { type: 'remote-progress'; status: number; progress: number }
  /** A poll saw the dub completed: the service charged it; download next. */
  | { type: 'remote-completed'; measuredDuration: number | null }
  /** A download worker found the dub not completed after all: back to polling. */
  | { type: 'not-completed' }
  | { type: 'remote-failed'; message: string }
  | { type: 'remote-missing' }
  /** A copy of content another job dubbed: its results were linked under this job's names, at no charge. */
  | { type: 'copied'; from: string; fromJob: number; measuredDuration: number | null }
  /** Every wanted output is on disk. */
  | { type: 'downloaded'; measuredDuration: number | null }
  /** A step failed in a way worth trying again later; `waiting` says why, `runAt` when. */
  | { type: 'wait'; waiting: Omit<Waiting, 'retryAt' | 'attempt'>; runAt: number; attempts: number }
  /** The whole queue stops for this (a rejected key, no credits): the job waits without counting attempts. */
  | { type: 'halt'; waiting: Omit<Waiting, 'retryAt' | 'attempt'> }
  | {
      type: 'fail';
      error: ContractError;
      /**
       * The dub completed at the service all the same (made in another language, a broken answer): it was
       * charged, and what it measured is the charge (null: the service did not say).
       */
      completedAtService?: { measuredDuration: number | null };
    }
  /** The worker stopped between two HTTP steps (shutdown, queue paused): back to where it waits. */
  | { type: 'interrupted' }
  /** The worker stopped between two HTTP steps because the user paused this job. */
  | { type: 'paused-at-step' }
  | { type: 'cancel' }
  /**
   * A poll saw the dub of a canceled or paused job end on the service (it has no way to stop or pause one):
   * `completed` is charged (the service charges at completion), `failed` or `missing` is not.
   */
  | {
      type: 'followed-dub-ended';
      outcome: 'completed' | 'failed' | 'missing';
      measuredDuration: number | null;
      message?: string;
    }
  /**
   * A job canceled while its create (v2) or start (v1, legacy) was under way: what became of it. With the
   * dub the service made (`remoteId`), the job is followed like one canceled after its dub started;
   * without, nothing was made. `unsure`: the list could not tell (said in the history).
   */
  | { type: 'made-after-cancel'; remoteId: string | null; status: number | null; unsure?: string }
  | { type: 'retry' }
  | { type: 'pause' }
  | { type: 'resume' };
export type LifeEventType = LifeEvent['type'];
