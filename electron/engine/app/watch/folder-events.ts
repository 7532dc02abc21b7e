import type { EngineEventBody } from '../../../../shared/contract/events';
import type { WatchFolder } from '../../../../shared/contract/watch';
import type { WatchFolderRow, WatchStore } from '../../db/watch';

const EMIT_EVERY_MS = 300;

export interface FolderEventsDeps {
  watch: WatchStore;
  emit(body: EngineEventBody): void;
  hasListeners(): boolean;
  view(row: WatchFolderRow): WatchFolder;
}

/**
 * The throttled `watch-folder` events: a change is told at the end of the turn when none was told in the
 * last 300 ms, else when they are over; at most one per folder per 300 ms, and only when its view changed
 * since the faces were last told; one `watch-folder-removed` per folder removed. A folder's new status
 * (starting, watching, unavailable) is told at the end of the turn all the same: it changes a few times per
 * session, and a restart's folders went from starting to watching inside the window.
 */
export class FolderEvents {
  private readonly dirty = new Set<number>();
  private readonly emitted = new Map<number, string>();
  /** Each folder's status as last told. */
  private readonly toldStatus = new Map<number, string>();
  private timer: NodeJS.Timeout | null = null;
  /** When the pending flush runs. */
  private flushAt = 0;
  private flushedAt = Number.NEGATIVE_INFINITY;
  private closed = false;

  constructor(private readonly deps: FolderEventsDeps) {}

  changed(id: number): void {
    if (this.closed) return;
    this.dirty.add(id);
    if (!this.deps.hasListeners()) return;
    const now = Date.now();
    if (this.timer && this.flushAt <= now) return;
    let wait = Math.max(0, this.flushedAt + EMIT_EVERY_MS - now);
    if (wait > 0 && this.statusMoved(id)) wait = 0;
    if (this.timer) {
      if (this.flushAt <= now + wait) return;
      clearTimeout(this.timer);
    }
    this.flushAt = now + wait;
    this.timer = setTimeout(() => this.flush(), wait);
    this.timer.unref?.();
  }

  private statusMoved(id: number): boolean {
    const told = this.toldStatus.get(id);
    return told !== undefined && this.deps.watch.folders.status(id) !== told;
  }

  /** Every folder's view may have changed. */
  allChanged(): void {
    for (const row of this.deps.watch.folders.all()) this.changed(row.id);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flush(): void {
    this.timer = null;
    if (this.closed) return;
    this.flushedAt = Date.now();
    const ids = [...this.dirty];
    this.dirty.clear();
    for (const id of ids) {
      const row = this.deps.watch.folders.get(id);
      if (!row) {
        this.emitted.delete(id);
        this.toldStatus.delete(id);
        this.deps.emit({ type: 'watch-folder-removed', id });
        continue;
      }
      this.toldStatus.set(id, row.status);
      const folder = this.deps.view(row);
      const json = JSON.stringify(folder);
      if (this.emitted.get(id) === json) continue;
      this.emitted.set(id, json);
      this.deps.emit({ type: 'watch-folder', folder });
    }
  }
}
