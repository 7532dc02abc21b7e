import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { JobView } from '../../../shared/contract/jobs';
import { useApp, useAppApi } from '../store';
import { rowAt } from '../store/rows';
import { SourceRowView } from './SourceRowView';

const ROW_ESTIMATE = 49;

function VirtualRow({ index }: { index: number }) {
  const row = useApp((s) => rowAt(s.pages, index));
  const selected = useApp((s) => (row ? s.selected[row.source] !== undefined : false));
  const cursor = useApp((s) => s.cursor === index);
  const openJobId = useApp((s) => s.openJobId);
  const selectRow = useApp((s) => s.selectRow);
  const openJob = useApp((s) => s.openJob);
  const bulk = useApp((s) => s.bulk);
  const onRetry = useCallback((jobs: readonly JobView[]) => void bulk('retry', jobs), [bulk]);
  if (!row) {
    return (
      <div role="row" aria-rowindex={index + 1} className="source-row row-loading" id={`row-${index}`}>
        <div role="gridcell" className="cell-name">
          <span className="skeleton" aria-label="Loading" />
        </div>
      </div>
    );
  }
  return (
    <SourceRowView
      row={row}
      index={index}
      selected={selected}
      cursor={cursor}
      openJobId={openJobId}
      onSelect={selectRow}
      onOpenJob={openJob}
      onRetry={onRetry}
    />
  );
}

/**
 * The queue as a virtual grid: only rows in view exist in the DOM, and only their pages (100 sources each)
 * are fetched. Arrows move, Space selects, Enter opens, Delete cancels.
 */
export function QueueList() {
  const store = useAppApi();
  const rowCount = useApp((s) => s.rowCount);
  const cursor = useApp((s) => s.cursor);
  const search = useApp((s) => s.search);
  const view = useApp((s) => s.view);
  const showRows = useApp((s) => s.showRows);
  const scrollRef = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count: rowCount ?? 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    showRows(first, last);
  }, [first, last, showRows, rowCount]);

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

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const s = store.getState();
    const count = s.rowCount ?? 0;
    if (count === 0) return;
    const move = (to: number) => {
      const index = Math.max(0, Math.min(count - 1, to));
      if (e.shiftKey) s.selectRow(index, 'range');
      else s.setCursor(index);
      virtualizer.scrollToIndex(index, { align: 'auto' });
      setTarget(index);
    };
    const row = rowAt(s.pages, s.cursor);
    switch (e.key) {
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
      aria-activedescendant={cursor >= first && cursor <= last ? `row-${cursor}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className="queue-inner" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className="virtual-slot"
            role="presentation"
            style={{ transform: `translateY(${item.start}px)` }}
          >
            <VirtualRow index={item.index} />
          </div>
        ))}
      </div>
    </div>
  );
}
