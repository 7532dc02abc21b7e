import type { DragEvent, KeyboardEvent } from 'react';
import { isTerminal, type SourceRow } from '../../../shared/contract/jobs';
import type { MoveTarget } from '../../../shared/contract/queue';
import type { AppState } from '../store';
import { rowAt } from '../store/rows';
import { selectedJobsOf } from '../store/selection';

const ROWS_TYPE = 'application/x-dubdesk-jobs';

/**
 * The jobs a move takes: the selected rows' when `row` is one of them (or no row is named), else the row's.
 * A dragged row is the one on screen, never looked up again by its index: the page it was on may be being
 * fetched again (another face's change), and the cursor's row must not move in its place.
 */
export function jobsToMove(s: AppState, row: SourceRow | null): number[] {
  if (row && s.selected[row.source] === undefined) return row.jobs.map((j) => j.id);
  const selected = selectedJobsOf(s).map((j) => j.id);
  if (selected.length) return selected;
  const cursor = rowAt(s.pages, s.cursor);
  return cursor ? cursor.jobs.map((j) => j.id) : [];
}

/** Ctrl/Cmd+Shift+↑: to the top; Ctrl/Cmd+Shift+↓: to the bottom. True when the key was a move. */
export function moveByKey(e: KeyboardEvent, s: AppState): boolean {
  if (!(e.ctrlKey || e.metaKey) || !e.shiftKey) return false;
  const to: MoveTarget | null = e.key === 'ArrowUp' ? 'top' : e.key === 'ArrowDown' ? 'bottom' : null;
  if (!to) return false;
  void s.moveJobs(jobsToMove(s, null), to);
  return true;
}

/**
 * Whether a row has a job that may still move: one not yet sent (queued, paused, or failed before the
 * service had it). The engine decides for each job; this only keeps the grab cursor off rows that cannot.
 */
export function rowCanMove(row: SourceRow): boolean {
  return row.jobs.some(
    (j) => j.state === 'queued' || j.state === 'paused' || (j.state === 'failed' && j.remoteId === null),
  );
}

/** Why a row cannot be dragged: finished, or already being sent. */
function whyItStays(row: SourceRow): string {
  return row.jobs.every((j) => isTerminal(j.state))
    ? 'Finished jobs keep their place: only jobs not yet sent can be moved.'
    : 'Jobs already being sent keep their place: only jobs not yet sent can be moved.';
}

/**
 * A row of the queue as something to drag and a place to drop: rows dropped on it go before it (its first
 * job), in the order the worker sends them. A thin line shows where they will land. A row that cannot move
 * shows no grab cursor, and a drag begun on it anyway says why instead of doing nothing.
 */
export function rowDragProps(row: SourceRow, state: () => AppState) {
  const mark = (e: DragEvent<HTMLElement>, on: boolean) =>
    e.currentTarget.classList.toggle('drop-before', on);
  const movable = rowCanMove(row);
  return {
    draggable: true,
    'data-movable': movable,
    onDragStart(e: DragEvent<HTMLElement>) {
      const s = state();
      // A selection dragged by one of its rows moves what of it can move; a row alone that cannot, stays.
      if (!movable && s.selected[row.source] === undefined) {
        e.preventDefault();
        s.notify('info', whyItStays(row));
        return;
      }
      const ids = jobsToMove(s, row);
      e.dataTransfer.setData(ROWS_TYPE, JSON.stringify(ids));
      e.dataTransfer.effectAllowed = 'move';
    },
    onDragOver(e: DragEvent<HTMLElement>) {
      if (!e.dataTransfer.types.includes(ROWS_TYPE)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      mark(e, true);
    },
    onDragLeave: (e: DragEvent<HTMLElement>) => mark(e, false),
    onDrop(e: DragEvent<HTMLElement>) {
      mark(e, false);
      const raw = e.dataTransfer.getData(ROWS_TYPE);
      if (!raw) return;
      e.preventDefault();
      e.stopPropagation();
      const ids = (JSON.parse(raw) as unknown[]).filter((id): id is number => typeof id === 'number');
      const target = row.jobs[0];
      if (target && !ids.includes(target.id)) void state().moveJobs(ids, { before: target.id });
    },
  };
}
