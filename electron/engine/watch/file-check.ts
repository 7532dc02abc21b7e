import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { ContractError } from '../../../shared/contract/errors';

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

/**
 * Opens the file without ever blocking (non-blocking open, so a FIFO or device swapped in after `look` can
 * never hang us; its type is checked on the open handle) and hashes all of its bytes. The whole file, not a
 * sample: two exports of the same length with the same head and tail (a WAV with a fix in the middle) are
 * different files, and a sampled hash would call them equal and skip the dub. The file is read once here
 * and its upload reads it again anyway, so a full hash costs at most what its upload's read costs.
 */
export async function hashFile(path: string, signal?: AbortSignal): Promise<Hashed | ContractError> {
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
    const hash = createHash('sha256');
    const stream = fh.createReadStream({
      autoClose: false,
      highWaterMark: 1024 * 1024,
      ...(signal ? { signal } : {}),
    });
    for await (const chunk of stream) hash.update(chunk as Buffer);
    return { hash: hash.digest('hex'), size: info.size, mtimeMs: Math.round(info.mtimeMs) };
  } catch (e) {
    if (signal?.aborted) throw e;
    return unreadable(path, (e as NodeJS.ErrnoException).code);
  } finally {
    await fh.close().catch(() => {});
  }
}
