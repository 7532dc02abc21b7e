import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { InputError } from './probe';

/**
 * Checks that a source is still a readable regular file without ever blocking: it is opened non-blocking
 * (a FIFO put in its place would otherwise hang the open until a writer appears) and its type is read from
 * the open handle, not from the path. Returns what the handle saw (its size and modification time).
 */
export async function assertSourceFile(path: string): Promise<Stats> {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
  const fh = await open(path, flags).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT')
      throw new InputError(
        path,
        'not-found',
        `${path}: the file is gone since it was added`,
        'Put it back, then retry the job.',
      );
    if (e.code === 'EACCES' || e.code === 'EPERM')
      throw new InputError(
        path,
        'permission',
        `${path}: permission denied.`,
        'Make the file readable, then retry the job.',
      );
    throw new InputError(
      path,
      'not-media',
      `${path}: cannot be opened (${e.code ?? e.message}).`,
      'Check the file, then retry the job.',
    );
  });
  try {
    const info = await fh.stat();
    if (!info.isFile())
      throw new InputError(
        path,
        'not-media',
        `${path}: no longer a regular file (a pipe, device or folder took its place).`,
        'Put the real file back, then retry the job.',
      );
    return info;
  } finally {
    await fh.close();
  }
}
