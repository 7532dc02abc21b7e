import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEventBody } from '../../shared/contract/events';
import type { WatchFolder } from '../../shared/contract/watch';
import type { WatchFolderRow, WatchStore } from '../../electron/engine/db/watch';
import { FolderEvents } from '../../electron/engine/app/watch/folder-events';

afterEach(() => {
  vi.useRealTimers();
});

/** FolderEvents over one folder whose view is its status and a count, the events it emitted collected. */
function events() {
  let status = 'starting';
  let done = 0;
  const emitted: EngineEventBody[] = [];
  const row = { id: 1 } as WatchFolderRow;
  const fe = new FolderEvents({
    watch: {
      folders: { get: () => ({ ...row, status }), all: () => [row], status: () => status },
    } as unknown as WatchStore,
    emit: (e) => emitted.push(e),
    hasListeners: () => true,
    view: () => ({ id: 1, status, counts: { done } }) as unknown as WatchFolder,
  });
  return { fe, emitted, set: (s: string) => (status = s), count: () => done++ };
}

describe('watch-folder events', () => {
  it('tell the faces of a change at once when none was told lately, then at most one per window', () => {
    vi.useFakeTimers();
    const { fe, emitted, count } = events();
    count();
    fe.changed(1);
    // Only the turn's own changes are gathered: a face sees the change without waiting for the window.
    vi.advanceTimersByTime(0);
    expect(emitted).toHaveLength(1);
    count();
    fe.changed(1);
    count();
    fe.changed(1);
    vi.advanceTimersByTime(0);
    expect(emitted, 'changes right after an event wait for the window').toHaveLength(1);
    vi.advanceTimersByTime(300);
    expect(emitted).toHaveLength(2);
    expect(emitted[1]).toMatchObject({ type: 'watch-folder', folder: { counts: { done: 3 } } });
    fe.close();
  });

  it("tell a folder's new status at the end of the turn, inside the window too", () => {
    vi.useFakeTimers();
    const { fe, emitted, set, count } = events();
    fe.changed(1);
    vi.advanceTimersByTime(0);
    expect(emitted).toHaveLength(1);
    // A restart's folder goes from starting to watching within the window: a face waited up to 300 ms
    // more to see it watched (the idle bench's catch-up, every restart).
    count();
    set('watching');
    fe.changed(1);
    vi.advanceTimersByTime(0);
    expect(emitted).toHaveLength(2);
    expect(emitted[1]).toMatchObject({
      type: 'watch-folder',
      folder: { status: 'watching', counts: { done: 1 } },
    });
    count();
    fe.changed(1);
    vi.advanceTimersByTime(0);
    expect(emitted, 'a count moving right after still waits for the window').toHaveLength(2);
    vi.advanceTimersByTime(300);
    expect(emitted).toHaveLength(3);
    fe.close();
  });
});
