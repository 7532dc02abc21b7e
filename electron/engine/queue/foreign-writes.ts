import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Db } from '../db/open';

/**
 * Calls `changed` when another process commits to the queue database (a `dubdesk add` in a terminal while
 * the app idles): the file system tells that the database's files were written, and SQLite's
 * `data_version`, which moves only for other connections' commits, tells whether it was someone else.
 * Where the folder cannot be watched, nothing is called: the idle look still comes, later.
 */
export function onForeignWrites(db: Db, changed: () => void): () => void {
  const file = db.name;
  const version = () => Number(db.pragma('data_version', { simple: true }));
  let seen = version();
  try {
    const watcher = watch(dirname(file), { persistent: false }, (_event, name) => {
      if (!name || !String(name).startsWith(basename(file)) || !db.open) return;
      const now = version();
      if (now === seen) return;
      seen = now;
      changed();
    });
    watcher.on('error', () => watcher.close());
    return () => watcher.close();
  } catch {
    return () => {};
  }
}
