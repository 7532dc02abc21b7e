import type { JobFilter, JobState } from '../../../shared/contract/jobs';

/** The sidebar's views of the queue, each a set of job states (`all`: every state). */
export const QUEUE_VIEWS = [
  'all',
  'working',
  'waiting',
  'paused',
  'done',
  'failed',
  'canceled',
  'history',
] as const;
export type QueueView = (typeof QUEUE_VIEWS)[number];

export const VIEW_STATES: Record<QueueView, readonly JobState[] | null> = {
  all: null,
  working: ['uploading', 'submitted', 'processing', 'downloading'],
  waiting: ['queued'],
  paused: ['paused'],
  done: ['completed'],
  failed: ['failed'],
  canceled: ['canceled'],
  // Finished jobs that aged out of the live list (the history setting) or were cleared: any finished state.
  history: null,
};

export const VIEW_LABELS: Record<QueueView, string> = {
  all: 'All',
  working: 'Working',
  waiting: 'Waiting',
  paused: 'Paused',
  done: 'Done',
  failed: 'Failed',
  canceled: 'Canceled',
  history: 'History',
};

/** Jobs not finished: while the whole queue is paused, none of them is working or about to. */
const OPEN_STATES: readonly JobState[] = ['queued', 'uploading', 'submitted', 'processing', 'downloading'];

/**
 * The states a view lists. While the whole queue is paused, every open job is paused in effect: the Paused
 * view lists them all (the sidebar counts them there, and their chips say paused).
 */
export function viewStates(view: QueueView, queuePaused: boolean): readonly JobState[] | null {
  if (queuePaused && view === 'paused') return ['paused', ...OPEN_STATES];
  return VIEW_STATES[view];
}

/** Whether a job in this state counts as paused now (its own pause, or the whole queue's). */
export function pausedNow(state: JobState, queuePaused: boolean): boolean {
  return state === 'paused' || (queuePaused && OPEN_STATES.includes(state));
}

export function filterFor(view: QueueView, search: string, queuePaused = false): JobFilter {
  const states = viewStates(view, queuePaused);
  const text = search.trim();
  return {
    ...(view === 'history' ? { history: true } : {}),
    ...(states ? { states: [...states] } : {}),
    ...(text ? { search: text } : {}),
  };
}

export function stateInView(view: QueueView, state: JobState, queuePaused = false): boolean {
  // A job that changes is live: the history only gains jobs by aging (a 'jobs-changed' reloads it).
  if (view === 'history') return false;
  const states = viewStates(view, queuePaused);
  return states === null || states.includes(state);
}
