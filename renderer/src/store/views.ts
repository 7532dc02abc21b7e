import type { JobFilter, JobState } from '../../../shared/contract/jobs';

/** The sidebar's views of the queue, each a set of job states (`all`: every state). */
export const QUEUE_VIEWS = ['all', 'working', 'waiting', 'paused', 'done', 'failed', 'canceled'] as const;
export type QueueView = (typeof QUEUE_VIEWS)[number];

export const VIEW_STATES: Record<QueueView, readonly JobState[] | null> = {
  all: null,
  working: ['uploading', 'submitted', 'processing', 'downloading'],
  waiting: ['queued'],
  paused: ['paused'],
  done: ['completed'],
  failed: ['failed'],
  canceled: ['canceled'],
};

export const VIEW_LABELS: Record<QueueView, string> = {
  all: 'All',
  working: 'Working',
  waiting: 'Waiting',
  paused: 'Paused',
  done: 'Done',
  failed: 'Failed',
  canceled: 'Canceled',
};

export function filterFor(view: QueueView, search: string): JobFilter {
  const states = VIEW_STATES[view];
  const text = search.trim();
  return {
    ...(states ? { states: [...states] } : {}),
    ...(text ? { search: text } : {}),
  };
}

export function stateInView(view: QueueView, state: JobState): boolean {
  const states = VIEW_STATES[view];
  return states === null || states.includes(state);
}
