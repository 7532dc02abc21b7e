import type { JobState, JobView, SourceRow } from '../../../shared/contract/jobs';
import type { QueueTotals } from '../../../shared/contract/queue';
import { formatEta } from '../format';
import { viewStates, type QueueView } from './views';

/** The sidebar's live count for a view, summed from the totals' per-state counts. */
/** Jobs a view lists (the history's from the count the engine keeps, not by reading years of jobs). */
export function viewCount(totals: QueueTotals | null, view: QueueView): number | null {
  if (!totals) return 0;
  if (view === 'history') return totals.history;
  // A paused queue has nothing working or waiting to start: its open jobs count as paused.
  if (totals.paused && (view === 'working' || view === 'waiting')) return 0;
  const states = viewStates(view, totals.paused !== null);
  if (states === null) return totals.total;
  return states.reduce((n, s) => n + (totals.counts[s] ?? 0), 0);
}

/** How a chip shows a job: a symbol (never colour alone) and a word. */
export type ChipKind = 'waiting' | 'working' | 'done' | 'failed' | 'paused' | 'canceled';

export function chipKind(state: JobState): ChipKind {
  switch (state) {
    case 'queued':
      return 'waiting';
    case 'uploading':
    case 'submitted':
    case 'processing':
    case 'downloading':
      return 'working';
    case 'completed':
      return 'done';
    case 'failed':
      return 'failed';
    case 'paused':
      return 'paused';
    case 'canceled':
      return 'canceled';
  }
}

export const CHIP_SYMBOL: Record<ChipKind, string> = {
  waiting: '○',
  working: '◐',
  done: '✓',
  failed: '✗',
  paused: '❚❚',
  canceled: '⊘',
};

export { stateWords } from '../../../shared/state-words';

/** A whole row is done: it collapses to one line. */
export function rowDone(row: SourceRow): boolean {
  return row.jobs.length > 0 && row.jobs.every((j) => j.state === 'completed');
}

/**
 * A chip's few words for why its job waits: "waiting to retry" only when a retry is scheduled; waiting for
 * another job (the first language's upload, the dub a copy takes its files from) says so in the engine's words.
 */
export function chipWaitWords(w: NonNullable<JobView['waiting']>): string {
  if (w.code === 'first-upload') return w.message;
  return w.retryAt ? 'waiting to retry' : w.message;
}

/** "retrying in 30 s (attempt 2)", or the waiting message when no retry is scheduled. */
export function waitingWords(job: JobView, now: number): string | null {
  const w = job.waiting;
  if (!w) return null;
  if (w.retryAt) {
    const left = Math.max(0, Math.ceil((Date.parse(w.retryAt) - now) / 1000));
    const when = left > 0 ? `retrying in ${formatEta(left)}` : 'retrying now';
    return `${w.message} — ${when}${w.attempt > 0 ? ` (attempt ${w.attempt + 1})` : ''}`;
  }
  return w.message;
}

/** The numbers the header shows, all from the totals (never stored twice). */
export interface HeaderNumbers {
  left: number;
  bytesPerSecond: number | null;
  etaSeconds: number | null;
  committed: number;
  /** The service's balance, as it last told it. */
  balance: number | null;
  /** Committed credits beyond the balance; 0 when they fit. */
  short: number;
}

export function headerNumbers(totals: QueueTotals | null): HeaderNumbers {
  return {
    left: totals?.left ?? 0,
    bytesPerSecond: totals?.bytesPerSecond ?? null,
    etaSeconds: totals?.etaSeconds ?? null,
    committed: totals?.creditsCommitted ?? 0,
    balance: totals?.balance ?? null,
    short: totals?.creditsShort ?? 0,
  };
}

/** The outputs a preview plays, best first (as the media route picks them). */
const DUB_TYPES = ['translated_mp4', 'translated', 'translated_mp3'] as const;
const AUDIO_EXT = /\.(mp3|m4a|wav|ogg|flac|aac)$/i;

/** Whether a job's preview is a video, an audio file, or nothing yet. */
export function previewKind(job: Pick<JobView, 'state' | 'outputs'>): 'video' | 'audio' | null {
  if (job.state !== 'completed') return null;
  const dub = DUB_TYPES.map((t) => job.outputs.find((o) => o.type === t)).find((o) => o !== undefined);
  if (!dub) return null;
  return AUDIO_EXT.test(dub.path) ? 'audio' : 'video';
}

/**
 * Whether this data folder was used before, by any face (jobs, live or in the history, or watched
 * folders): then nothing is a first run, even with no service chosen yet. Null until both are known.
 */
export function queueUsed(
  totals: Pick<QueueTotals, 'total' | 'history'> | null,
  folders: readonly unknown[] | null,
): boolean | null {
  if (totals && totals.total + totals.history > 0) return true;
  if (folders && folders.length > 0) return true;
  return totals && folders ? false : null;
}
