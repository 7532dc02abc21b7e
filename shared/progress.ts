import type { JobState } from './contract/jobs';

/**
 * Where each phase of a job lies in its one number (0..100): the upload, the service's work (its queue, then
 * its dubbing), the download. A job made without an upload (a link, a copy of the service's) starts at the
 * service's part. The state names the phase beside the number.
 */
const SPAN = { upload: [0, 15], service: [15, 90], download: [90, 100] } as const;

type Phase = keyof typeof SPAN;
type Step = 'submit' | 'track' | 'fetch' | 'done';

const within = (phase: Phase, percent: number) => {
  const [from, to] = SPAN[phase];
  return from + ((to - from) * Math.min(100, Math.max(0, percent))) / 100;
};

const PHASE_OF_STEP: Record<Step, Phase | 'done'> = {
  submit: 'upload',
  track: 'service',
  fetch: 'download',
  done: 'done',
};

/**
 * A job's progress as one number. The phase is its step (a paused or failed job keeps the step it stopped
 * at); `percent` is the phase's own (the upload's or download's bytes, the service's percent), when there is
 * one now: a job waiting to start a phase (queued, in the service's queue) is at its beginning.
 */
export function jobProgress(state: JobState, step: Step, percent: number | null): number {
  const phase = state === 'completed' ? 'done' : PHASE_OF_STEP[step];
  if (phase === 'done') return 100;
  if (state === 'queued' || state === 'submitted') return SPAN[phase][0];
  return within(phase, percent ?? 0);
}
