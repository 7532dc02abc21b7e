import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import type { JobView, SourceRow } from '../../../shared/contract/jobs';
import { useApp, useAppApi } from '../store';
import { PAGE_SIZE } from '../store/queue';
import { rowAt } from '../store/rows';
import { moveByKey, rowDragProps } from './row-moves';
import { SourceRowView, estimateRowHeight, itemId, rowItemCount } from './SourceRowView';

/** Rows made beyond the visible ones, each side: each costs DOM, style, layout and paint on every frame. */
const OVERSCAN = 3;

interface RowActions {
  onSelect: (index: number, mode: 'only' | 'toggle' | 'range') => void;
  onItemFocus: (index: number, item: number) => void;
  onOpenJob: (id: number) => void;
  onRetry: (jobs: readonly JobView[]) => void;
}

/** What one row shows from the store, picked by one selector; equal when the row would render the same. */
interface RowSlice {
  row: SourceRow | null;
  selected: boolean;
  cursor: boolean;
  /** The item the arrows are on, when this is the cursor's row. */
  activeItem: number | null;
  /** The open job when it is one of this row's, else null: opening a job re-renders two rows, not all. */
  openJobId: number | null;
  /** The whole queue is paused: its chips show their jobs as paused. */
  queuePaused: boolean;
}

function sameSlice(a: RowSlice, b: RowSlice): boolean {
  return (
    a.row === b.row &&
    a.selected === b.selected &&
    a.cursor === b.cursor &&
    a.activeItem === b.activeItem &&
    a.openJobId === b.openJobId &&
    a.queuePaused === b.queuePaused
  );
}

/** The smallest loaded row index holding one of these jobs, or null when no loaded page has one. */
function firstRowOf(pages: Readonly<Record<number, readonly SourceRow[]>>, jobs: ReadonlySet<number>) {
  let found: number | null = null;
  for (const [page, rows] of Object.entries(pages)) {
    const at = rows.findIndex((row) => row.jobs.some((j) => jobs.has(j.id)));
    const index = Number(page) * PAGE_SIZE + at;
    if (at >= 0 && (found === null || index < found)) found = index;
  }
  return found;
}

/**
 * One row of the grid in its slot. Memoised on (index, actions): scrolling re-renders the list, not the rows
 * already shown; a row re-renders only when its own slice of the store changes.
 */
const VirtualRow = memo(function VirtualRow({
  index,
  actions,
  measure,
}: {
  index: number;
  actions: RowActions;
  measure: (node: HTMLElement | null) => void;
}) {
  const store = useAppApi();
  const last = useRef<RowSlice | null>(null);
  const slice = useSyncExternalStore(store.subscribe, () => {
    const s = store.getState();
    const row = rowAt(s.pages, index);
    const open = s.openJobId;
    const next: RowSlice = {
      row,
      selected: row ? s.allOf !== null || s.selected[row.source] !== undefined : false,
      cursor: s.cursor === index,
      activeItem: s.cursor === index ? s.cursorItem : null,
      openJobId: row && open !== null && row.jobs.some((j) => j.id === open) ? open : null,
      queuePaused: s.totals?.paused != null,
    };
    if (last.current && sameSlice(last.current, next)) return last.current;
    last.current = next;
    return next;
  });
  const { row } = slice;
  return (
    <div
      data-index={index}
      ref={measure}
      className="virtual-slot"
      role="presentation"
      {...(row ? rowDragProps(row, store.getState) : {})}
    >
      {row ? (
        <SourceRowView
          row={row}
          index={index}
          selected={slice.selected}
          cursor={slice.cursor}
          activeItem={slice.activeItem}
          onItemFocus={actions.onItemFocus}
          openJobId={slice.openJobId}
          queuePaused={slice.queuePaused}
          onSelect={actions.onSelect}
          onOpenJob={actions.onOpenJob}
          onRetry={actions.onRetry}
        />
      ) : (
        <div role="row" aria-rowindex={index + 1} className="source-row row-loading" id={`row-${index}`}>
          <div role="gridcell" className="cell-name">
            <span className="skeleton" aria-label="Loading" />
          </div>
        </div>
      )}
    </div>
  );
});

/**
 * The queue as a virtual grid: only rows in view exist in the DOM, and only their pages (100 sources each)
 * are fetched. One Tab stop (the grid keeps the focus and names the row or chip the arrows are on as its
 * active descendant: a focused row would drop the focus to the page when scrolled out of the DOM). Up and
 * Down move through rows, Left and Right through a row's chips and Retry buttons; Space selects, Enter
 * opens (or presses the button), Delete cancels, Ctrl+A selects every row.
 */
export function QueueList() {
  const store = useAppApi();
  const rowCount = useApp((s) => s.rowCount);
  const cursor = useApp((s) => s.cursor);
  // The chip or button the arrows are on, while it is there (a Retry goes once its jobs are queued again).
  const cursorItem = useApp((s) => {
    const row = rowAt(s.pages, s.cursor);
    return s.cursorItem !== null && row && s.cursorItem < rowItemCount(row) ? s.cursorItem : null;
  });
  const search = useApp((s) => s.search);
  const view = useApp((s) => s.view);
  const scrollRef = useRef<HTMLDivElement>(null);

  const actions = useMemo<RowActions>(
    () => ({
      onSelect: (index, mode) => store.getState().selectRow(index, mode),
      onItemFocus: (index, item) => store.getState().setCursor(index, item),
      onOpenJob: (id) => store.getState().openJob(id),
      onRetry: (jobs) => void store.getState().bulk('retry', jobs),
    }),
    [store],
  );

  const virtualizer = useVirtualizer({
    count: rowCount ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => estimateRowHeight(rowAt(store.getState().pages, index)),
    overscan: OVERSCAN,
    // Slot positions and the list's height are written to the DOM by the virtualizer; React renders again
    // only when the range of rows changes, not on every scroll event or row measurement.
    directDomUpdates: true,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    store.getState().showRows(first, last);
  }, [first, last, store, rowCount]);

  // A jump (End, PageDown) lands by estimated heights; once the target's page arrived and its rows were
  // measured, land again on the real position.
  const [target, setTarget] = useState<number | null>(null);
  const targetLoaded = useApp((s) => target !== null && rowAt(s.pages, target) !== null);
  useEffect(() => {
    if (target === null || !targetLoaded) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        virtualizer.scrollToIndex(target, { align: 'auto' });
        setTarget(null);
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [target, targetLoaded, virtualizer]);

  // A batch was just added: the keyboard goes to its first row once a page holding it has arrived.
  const focusBatch = useApp((s) => s.focusBatch);
  const pages = useApp((s) => (s.focusBatch ? s.pages : null));
  useEffect(() => {
    if (!focusBatch || !pages || !rowCount) return;
    const index = firstRowOf(pages, new Set(focusBatch));
    if (index === null) {
      // New sources come last (the queue is in the order jobs were added): show the end, where they land.
      const lastPage = Math.floor((rowCount - 1) / PAGE_SIZE);
      if (!pages[lastPage]) virtualizer.scrollToIndex(rowCount - 1, { align: 'end' });
      return;
    }
    const s = store.getState();
    s.setFocusBatch(null);
    s.setCursor(index);
    virtualizer.scrollToIndex(index, { align: 'auto' });
    setTarget(index);
    scrollRef.current?.focus();
  }, [focusBatch, pages, rowCount, store, virtualizer]);

  // Until it is found, the user may go elsewhere (a batch only in rows far from the loaded pages): a key or a
  // click of theirs wins, so focus is never pulled away from where they went.
  useEffect(() => {
    if (!focusBatch) return;
    const letGo = () => store.getState().setFocusBatch(null);
    window.addEventListener('keydown', letGo, true);
    window.addEventListener('pointerdown', letGo, true);
    return () => {
      window.removeEventListener('keydown', letGo, true);
      window.removeEventListener('pointerdown', letGo, true);
    };
  }, [focusBatch, store]);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const s = store.getState();
    const count = s.rowCount ?? 0;
    if (count === 0) return;
    // A chip clicked (or given the focus back by the job panel) has it: the grid takes it again, so the
    // keyboard goes on from its active descendant.
    const takeFocus = () => {
      if (document.activeElement !== scrollRef.current) scrollRef.current?.focus();
    };
    const move = (to: number) => {
      const index = Math.max(0, Math.min(count - 1, to));
      const target = rowAt(s.pages, index);
      // Up and down keep the column: the same place among the row's items, or its last.
      const item = s.cursorItem === null || !target ? null : Math.min(s.cursorItem, rowItemCount(target) - 1);
      if (e.shiftKey) s.selectRow(index, 'range');
      s.setCursor(index, item !== null && item >= 0 ? item : null);
      virtualizer.scrollToIndex(index, { align: 'auto' });
      setTarget(index);
      takeFocus();
    };
    const row = rowAt(s.pages, s.cursor);
    const across = (to: number | null) => {
      s.setCursor(s.cursor, to);
      takeFocus();
    };
    if (moveByKey(e, s)) {
      e.preventDefault();
      return;
    }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') {
      s.selectAll();
      e.preventDefault();
      return;
    }
    switch (e.key) {
      case 'ArrowRight': {
        const items = row ? rowItemCount(row) : 0;
        if (items > 0) across(s.cursorItem === null ? 0 : Math.min(items - 1, s.cursorItem + 1));
        break;
      }
      case 'ArrowLeft':
        if (s.cursorItem !== null) across(s.cursorItem === 0 ? null : s.cursorItem - 1);
        break;
      case 'ArrowDown':
        move(s.cursor + 1);
        break;
      case 'ArrowUp':
        move(s.cursor - 1);
        break;
      case 'PageDown':
        move(s.cursor + 10);
        break;
      case 'PageUp':
        move(s.cursor - 10);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(count - 1);
        break;
      case ' ':
        s.selectRow(s.cursor, 'toggle');
        break;
      case 'Enter': {
        if (s.cursorItem !== null) {
          document.getElementById(itemId(s.cursor, s.cursorItem))?.click();
          break;
        }
        const job = row?.jobs.find((j) => j.state !== 'completed') ?? row?.jobs[0];
        if (job) s.openJob(job.id);
        break;
      }
      case 'Delete':
      case 'Backspace': {
        const hasSelection = Object.keys(s.selected).length > 0;
        void s.bulk('cancel', hasSelection ? undefined : (row?.jobs ?? []));
        break;
      }
      case 'Escape':
        s.clearSelection();
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  if (rowCount === 0) {
    return (
      <div className="queue-empty">
        {search || view !== 'all' ? (
          <p>No source matches {search ? `“${search}”` : 'this view'}.</p>
        ) : (
          <>
            <p className="queue-empty-title">The queue is empty</p>
            <p>Drop videos or folders anywhere on this window, or press Ctrl+O to add files.</p>
          </>
        )}
      </div>
    );
  }

  return (
    <div
      ref={scrollRef}
      className="queue-scroll"
      role="grid"
      aria-label="Queue: one row per source, one chip per language"
      aria-rowcount={rowCount ?? undefined}
      aria-multiselectable="true"
      aria-activedescendant={
        cursor >= first && cursor <= last
          ? cursorItem === null
            ? `row-${cursor}`
            : itemId(cursor, cursorItem)
          : undefined
      }
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className="queue-inner" ref={virtualizer.containerRef}>
        {items.map((item) => (
          <VirtualRow
            key={item.key}
            index={item.index}
            actions={actions}
            measure={virtualizer.measureElement}
          />
        ))}
      </div>
    </div>
  );
}
