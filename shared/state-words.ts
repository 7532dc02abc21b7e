import type { JobState } from './contract/jobs';

/**
 * A job's state in words, named beside its one progress number in every face: the window's chips and job
 * panel, the CLI's lines, the desktop's tray and notices. `--json`, `status`'s table and `--state` keep the
 * state's own name, which scripts and filters use.
 */
const STATE_WORDS: Record<JobState, string> = {
  queued: 'waiting',
  uploading: 'uploading',
  submitted: 'in the service queue',
  processing: 'dubbing',
  downloading: 'downloading',
  completed: 'done',
  failed: 'failed',
  canceled: 'canceled',
  paused: 'paused',
};

export function stateWords(state: JobState): string {
  return STATE_WORDS[state];
}
