import { lstat, realpath } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * A folder on the file's path that is a symbolic link someone else made: another user who can write beside
 * an output folder could swap it for a link into a folder of theirs (or one only the user can read) and
 * have Dubdesk serve what is there, or write there. A link the user (or the administrator) made,
 * `~/Videos` pointing at a second disk, is followed, as Linux's `protected_symlinks` follows links in
 * shared folders only for their owner.
 */
export function foreignLinkOnPath(path: string): Promise<string | null> {
  return foreignLinkFrom(dirname(path));
}

/**
 * `start` or a folder above it, when one is a link another user made. A path that is its own real path has
 * no link on it at all (a link on it would have been resolved): one call answers the usual case, where a
 * folder by folder walk asks the thread pool once per folder up to the root.
 */
export async function foreignLinkFrom(start: string): Promise<string | null> {
  const uid = process.getuid?.();
  if (uid === undefined) return null; // Windows: links need the right to make them; no owner to compare
  const real = await realpath(start).catch(() => null);
  if (real === resolve(start)) return null;
  let folder = start;
  for (;;) {
    const st = await lstat(folder).catch(() => null);
    if (st?.isSymbolicLink() && st.uid !== uid && st.uid !== 0) return folder;
    const up = dirname(folder);
    if (up === folder) return null;
    folder = up;
  }
}
