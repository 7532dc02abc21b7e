import type { DragEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { SourceRow } from '../../shared/contract/jobs';
import { rowDragProps } from '../../renderer/src/components/row-moves';
import type { AppState } from '../../renderer/src/store';

/** A row of the list as the page shows it: its source and its jobs' ids (all a move reads of it). */
const rowOf = (source: string, ids: number[]) =>
  ({ source, jobs: ids.map((id) => ({ id, state: 'queued', remoteId: null })) }) as unknown as SourceRow;

/** The browser's drag data between a drag's start and its drop. */
function dragData() {
  const data = new Map<string, string>();
  const dataTransfer = {
    setData: (type: string, value: string) => void data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    get types() {
      return [...data.keys()];
    },
    effectAllowed: 'none',
    dropEffect: 'none',
  };
  const event = {
    dataTransfer,
    currentTarget: { classList: { toggle: () => {} } },
    preventDefault: () => {},
    stopPropagation: () => {},
  } as unknown as DragEvent<HTMLElement>;
  return event;
}

describe('dragging a row of the queue', () => {
  it("moves the row on screen while its page is fetched again, never the cursor's row in its place", () => {
    const cursorRow = rowOf('/videos/first.mp4', [1, 2]);
    const dragged = rowOf('/videos/third.mp4', [5, 6]);
    const moveJobs = vi.fn(async () => {});
    // The dragged row's page is not in the store this instant (another face's change: it is fetched again).
    const state = { pages: { 0: [cursorRow] }, selected: {}, cursor: 0, moveJobs } as unknown as AppState;
    const drag = dragData();
    rowDragProps(dragged, () => state).onDragStart(drag);
    rowDragProps(cursorRow, () => state).onDrop(drag);
    expect(moveJobs).toHaveBeenCalledWith([5, 6], { before: 1 });
  });

  it('takes the selected rows when the dragged row is one of them', () => {
    const a = rowOf('/videos/a.mp4', [1]);
    const b = rowOf('/videos/b.mp4', [2]);
    const c = rowOf('/videos/c.mp4', [3]);
    const moveJobs = vi.fn(async () => {});
    const state = {
      pages: { 0: [a, b, c] },
      selected: { '/videos/b.mp4': [2], '/videos/c.mp4': [3] },
      cursor: 2,
      moveJobs,
    } as unknown as AppState;
    const drag = dragData();
    rowDragProps(c, () => state).onDragStart(drag);
    rowDragProps(a, () => state).onDrop(drag);
    expect(moveJobs).toHaveBeenCalledWith([2, 3], { before: 1 });
  });
});
