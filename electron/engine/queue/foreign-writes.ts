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
  const asked = db.prepare('PRAGMA data_version').pluck();
  const version = () => Number(asked.get());
  let seen = version();
  // This process's own commits write the same files, several events each: one look per turn of the loop.
  let looking = false;
  const look = () => {
    looking = false;
    if (!db.open) return;
    const now = version();
    if (now === seen) return;
    seen = now;
    changed();
  };
  try {
    const watcher = watch(dirname(file), { persistent: false }, (_event, name) => {
      if (!name || !String(name).startsWith(basename(file)) || looking) return;
      looking = true;
      setImmediate(look);
    });
    watcher.on('error', () => watcher.close());
    return () => watcher.close();
  } catch {
    return () => {};
  }
}
