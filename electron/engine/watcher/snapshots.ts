import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolderSync } from '../files/make-folder';
import type { WatchFolderRow, WatchStore } from '../db/watch';

/**
 * Each watched folder's snapshot of its tree (paths and times, written by `@parcel/watcher`) as of its last
 * catch-up, so a restart asks only what changed since instead of stat'ing every file. A snapshot counts
 * once the folder's row names it, which is written after the catch-up that follows it is over: a database
 * restored from a backup names an older one (deleted since), or none, and the folder is walked whole.
 */
export class FolderSnapshots {
  constructor(
    private readonly dir: string,
    private readonly watch: WatchStore,
  ) {}

  /** Names start with the folder and what is watched of it: another shape never reads this one. */
  private prefix(row: WatchFolderRow, shape: string): string {
    return `folder-${row.id}-${createHash('sha256').update(shape).digest('hex').slice(0, 16)}-`;
  }

  /** The folder's snapshot, if its row names one of its current shape that is still there. */
  usable(row: WatchFolderRow, shape: string): string | null {
    const name = row.snapshot;
    if (!name?.startsWith(this.prefix(row, shape))) return null;
    const file = join(this.dir, name);
    return existsSync(file) ? file : null;
  }

  /** Where a new snapshot of the folder goes (it counts once committed). */
  fresh(row: WatchFolderRow, shape: string): string {
    makeFolderSync(this.dir, 0o700);
    return join(this.dir, `${this.prefix(row, shape)}${randomBytes(6).toString('hex')}.snap`);
  }

  /** `file` is now the folder's snapshot; the folder's others go. */
  commit(row: WatchFolderRow, file: string): void {
    const name = file.slice(this.dir.length + 1);
    this.watch.folders.setSnapshot(row.id, name);
    this.drop(row.id, name);
  }

  /** Removes the folder's snapshots but `keep`. */
  drop(folderId: number, keep: string | null = null): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const n of names)
      if (n.startsWith(`folder-${folderId}-`) && n !== keep) rmSync(join(this.dir, n), { force: true });
  }
}
