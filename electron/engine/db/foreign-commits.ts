import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Area } from './changes';
import type { Db } from './types';

/** After the files were written, looks again this long after (each after the one before). */
const LATER_MS = [100, 900];

/**
 * Tells `changed` which areas another process changed (a `dubdesk add` in a terminal while the app is open,
 * the desktop app working the queue while a browser shows `serve`). The file system says the database's
 * files were written (an event, so an idle engine never wakes to look); SQLite's `data_version`, which moves
 * only for other connections' commits, says whether it was someone else (one cheap pragma per turn of the
 * event loop in which the files were written, this process's own commits included); the change marks say
 * what. Where the folder cannot be watched, `look` is the way: the engine's loops call it as they turn.
 */
export class ForeignCommits {
  private readonly version: () => number;
  private seen: number;
  private watcher: FSWatcher | null = null;
  private looking = false;
  private later: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly moved: () => Set<Area>,
    private readonly changed: (areas: Set<Area>) => void,
  ) {
    const asked = db.prepare('PRAGMA data_version').pluck();
    this.version = () => Number(asked.get());
    this.seen = this.version();
    moved(); // learns the marks as they are
  }

  /** Starts listening to the data folder (idempotent); false where it cannot be watched. */
  start(): boolean {
    if (this.watcher) return true;
    const file = this.db.name;
    try {
      const watcher = watch(dirname(file), { persistent: false }, (_event, name) => {
        if (name && String(name).startsWith(basename(file))) this.written();
      });
      watcher.on('error', () => this.stop());
      this.watcher = watcher;
      return true;
    } catch {
      return false;
    }
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.later) clearTimeout(this.later);
    this.later = null;
  }

  /**
   * The files were written: a look at the next turn (this process's own commits write them too, several
   * events each: one look per turn), and looks again after LATER_MS: a writer writes the WAL first and its
   * index (shared memory, which makes no event) just after, so a look in between sees no commit yet.
   */
  private written(): void {
    if (!this.looking) {
      this.looking = true;
      setImmediate(() => {
        this.looking = false;
        this.look();
      });
    }
    if (this.later) return;
    const again = (i: number) => {
      this.later = setTimeout(() => {
        this.later = null;
        this.look();
        if (i + 1 < LATER_MS.length) again(i + 1);
      }, LATER_MS[i]);
      this.later.unref?.();
    };
    again(0);
  }

  /** Whether another process committed since the last look, and if so, what it changed is told. */
  look(): void {
    if (!this.db.open || this.db.inTransaction) return;
    const now = this.version();
    if (now === this.seen) return;
    this.seen = now;
    const areas = this.moved();
    if (areas.size) this.changed(areas);
  }
}
