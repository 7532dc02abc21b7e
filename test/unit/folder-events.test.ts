import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEventBody } from '../../shared/contract/events';
import type { WatchFolder } from '../../shared/contract/watch';
import type { WatchFolderRow, WatchStore } from '../../electron/engine/db/watch';
import { FolderEvents } from '../../electron/engine/app/watch/folder-events';

afterEach(() => {
  vi.useRealTimers();
});

/** FolderEvents over one folder whose view is its status, the events it emitted collected. */
function events() {
  let status = 'starting';
  const emitted: EngineEventBody[] = [];
  const row = { id: 1 } as WatchFolderRow;
  const fe = new FolderEvents({
    watch: { folders: { get: () => row, all: () => [row] } } as unknown as WatchStore,
    emit: (e) => emitted.push(e),
    hasListeners: () => true,
    view: () => ({ id: 1, status }) as unknown as WatchFolder,
  });
  return { fe, emitted, set: (s: string) => (status = s) };
}

describe('watch-folder events', () => {
  it('tell the faces of a change at once when none was told lately, then at most one per window', () => {
    vi.useFakeTimers();
    const { fe, emitted, set } = events();
    set('watching');
    fe.changed(1);
    // Only the turn's own changes are gathered: a face sees "watching" without waiting for the window.
    vi.advanceTimersByTime(0);
    expect(emitted).toHaveLength(1);
    set('unavailable');
    fe.changed(1);
    set('watching');
    fe.changed(1);
    set('scanning');
    fe.changed(1);
    vi.advanceTimersByTime(0);
    expect(emitted, 'changes right after an event wait for the window').toHaveLength(1);
    vi.advanceTimersByTime(300);
    expect(emitted).toHaveLength(2);
    expect(emitted[1]).toMatchObject({ type: 'watch-folder', folder: { status: 'scanning' } });
    fe.close();
  });
});
