/**
 * The one rule for a file a face serves to a page (the desktop's `dubdesk-media:` protocol, `serve`'s
 * `/media`): exactly the path the job recorded, and only if it is a regular file there.
 *
 * Outside the engine on purpose: the desktop's main process needs this rule but must not bundle the engine
 * (SQLite and the rest live in the engine's own process), and the faces reach the engine through its entry
 * alone.
 */
import { constants } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DubdeskError } from '../../shared/contract/errors';
import { foreignLinkOnPath } from './foreign-link';

const notServed = (message: string) => new DubdeskError('not-found', message);

/**
 * Opens the recorded file for reading. Refused: a file reached through a folder that is another user's
 * symlink, a symlink put where the file was (lstat, then O_NOFOLLOW so
 * not even one swapped in between the two), a FIFO or device (O_NONBLOCK: opening a FIFO would otherwise wait
 * for a writer forever; the open handle's type is checked again), a folder. Ranges and the like are then read
 * from this handle, never by opening the path a second time.
 */
export async function openServedFile(path: string): Promise<FileHandle> {
  const refused = () => notServed('this media is not a regular file; only regular files are served');
  try {
    if (!(await lstat(path)).isFile()) throw refused();
    const handle = await open(
      path,
      constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0),
    );
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw refused();
    }
    // O_NOFOLLOW guards the last part of the path only: a folder on the way swapped for another user's
    // symlink would serve another folder's file of the same name.
    const foreign = await foreignLinkOnPath(resolve(path));
    if (foreign !== null) {
      await handle.close();
      throw notServed(
        `this media file is reached through ${foreign}, a symbolic link another user made; it is not served`,
      );
    }
    return handle;
  } catch (e) {
    if (e instanceof DubdeskError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw refused();
    if (code === 'ENOENT' || code === 'ENOTDIR') throw notServed('this media file is gone from the disk');
    throw new DubdeskError('permission', 'this media file cannot be read');
  }
}
