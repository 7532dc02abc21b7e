import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import type { ContractError } from '../../../shared/contract/errors';
import { sha256Of } from '../files/sha256';

/** What a path is now, without opening it. Anything but a regular file (a FIFO, a device…) is `other`. */
export type Seen =
  | { kind: 'file'; size: number; mtimeMs: number }
  | { kind: 'missing' }
  | { kind: 'other' }
  | { kind: 'error'; problem: ContractError };

export async function look(path: string): Promise<Seen> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return { kind: 'other' };
    return { kind: 'file', size: info.size, mtimeMs: Math.round(info.mtimeMs) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'error', problem: unreadable(path, code) };
  }
}

function unreadable(path: string, code: string | undefined): ContractError {
  if (code === 'EACCES' || code === 'EPERM')
    return {
      code: 'permission',
      message: `${path} cannot be read (permission denied)`,
      remedy: 'Make the file readable by the user Dubdesk runs as.',
    };
  if (code === 'EBUSY')
    return {
      code: 'disk',
      message: `${path} is locked by another program (still being written?)`,
      remedy: 'Close the program writing it; it is taken once it can be read.',
    };
  return {
    code: 'disk',
    message: `${path} cannot be read (${code ?? 'unknown error'})`,
    remedy: 'Check the file and the drive it is on.',
  };
}

export interface Hashed {
  hash: string;
  size: number;
  mtimeMs: number;
}

/** Who Dubdesk runs as, where the platform says (not Windows). */
const OWNER = process.getuid?.() ?? null;

/**
 * Why the file open as `opened` is not to be taken from the watched folder `within`, or null when it is.
 * Someone who can write into a shared drop folder must not make Dubdesk upload, pay for and publish any
 * video the owner can read: what the path leads to (links and linked folders resolved) must lie inside the
 * watched folder, and a link must lead to a file of the owner's. Checked on the open handle, so a link
 * changed between the look and the open is caught: the file read is the one the path leads to now.
 */
async function notTaken(path: string, within: string, opened: Stats): Promise<ContractError | null> {
  const [real, root, entry] = await Promise.all([realpath(path), realpath(within), lstat(path)]);
  if (real !== root && !real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`))
    return {
      code: 'permission',
      message: `${path} leads outside the watched folder (to ${real}): not taken`,
      remedy: 'Put the file itself into the folder, or add it by hand (dubdesk add).',
    };
  if (entry.isSymbolicLink() && OWNER !== null && opened.uid !== OWNER && opened.uid !== 0)
    return {
      code: 'permission',
      message: `${path} is a link to a file of another user: not taken`,
      remedy: 'Put the file itself into the folder, or add it by hand (dubdesk add).',
    };
  const target = await stat(real);
  if (target.dev !== opened.dev || target.ino !== opened.ino)
    return {
      code: 'disk',
      message: `${path} changed while it was opened`,
      remedy: 'It is looked at again by itself.',
    };
  return null;
}

/**
 * Opens the file without ever blocking (non-blocking open, so a FIFO or device swapped in after `look` can
 * never hang us; its type is checked on the open handle), makes sure it may be taken from the watched
 * folder `within` (see `notTaken`), and hashes all of its bytes. The whole file, not a
 * sample: two exports of the same length with the same head and tail (a WAV with a fix in the middle) are
 * different files, and a sampled hash would call them equal and skip the dub. The file is read once here
 * and its upload reads it again anyway, so a full hash costs at most what its upload's read costs.
 */
export async function hashForTaking(
  path: string,
  within: string,
  signal?: AbortSignal,
): Promise<Hashed | ContractError> {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return { code: 'not-found', message: `${path} is gone`, remedy: 'It is taken when it is back.' };
    return unreadable(path, code);
  }
  try {
    const info = await fh.stat();
    if (!info.isFile())
      return { code: 'not-media', message: `${path} is not a regular file (a pipe, device or folder)` };
    const refused = await notTaken(path, within, info);
    if (refused) return refused;
    const hash = await sha256Of(fh, info.size, signal);
    return { hash, size: info.size, mtimeMs: Math.round(info.mtimeMs) };
  } catch (e) {
    if (signal?.aborted) throw e;
    return unreadable(path, (e as NodeJS.ErrnoException).code);
  } finally {
    await fh.close().catch(() => {});
  }
}
