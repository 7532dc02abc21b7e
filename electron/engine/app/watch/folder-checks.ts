import { constants } from 'node:fs';
import { access, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { DubdeskError } from '../../../../shared/contract/errors';
import type { WatchPreset } from '../../../../shared/contract/watch';
import type { WatchFolderRow } from '../../db/watch';
import { absolutePath } from '../paths';

/**
 * The folder a user asked to watch, resolved against the face's working directory and checked: it must
 * exist, be a folder, and be readable. Every refusal names the path and says what to do.
 */
export async function checkWatchPath(raw: string, cwd: string | null): Promise<string> {
  const path = absolutePath(raw, cwd, 'path');
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR')
      throw new DubdeskError('not-found', `no folder at ${path}`, {
        remedy: 'Create the folder first, or check the path (quote names with spaces).',
        field: 'path',
      });
    if (e.code === 'EACCES' || e.code === 'EPERM')
      throw new DubdeskError('permission', `${path} cannot be read (permission denied)`, {
        remedy: 'Choose a folder you can read, or change its permissions.',
        field: 'path',
      });
    throw new DubdeskError('disk', `${path} cannot be reached (${e.code ?? e.message})`, {
      remedy: 'Check the drive or share it is on.',
      field: 'path',
    });
  });
  if (!info.isDirectory())
    throw new DubdeskError('bad-request', `${path} is a file, not a folder`, {
      remedy: 'Watch the folder it is in, or another folder; to dub one file, add it to the queue.',
      field: 'path',
    });
  const readable = await access(path, constants.R_OK | constants.X_OK)
    .then(() => readdir(path))
    .then(
      () => true,
      () => false,
    );
  if (!readable)
    throw new DubdeskError('permission', `${path} cannot be read (permission denied)`, {
      remedy: 'Choose a folder you can read, or change its permissions.',
      field: 'path',
    });
  return path;
}

const within = (parent: string, child: string) => {
  const rel = relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
};

/**
 * One file must belong to one folder: the same folder twice, or a folder inside another watched with its
 * subfolders (or around one, when it takes subfolders itself), would dub the same file twice.
 */
export async function checkOverlap(
  path: string,
  recursive: boolean,
  others: readonly WatchFolderRow[],
): Promise<void> {
  const real = await realpath(path).catch(() => path);
  for (const o of others) {
    const theirs = await realpath(o.path).catch(() => o.path);
    if (theirs === real)
      throw new DubdeskError('conflict', `${path} is already watched (folder ${o.id})`, {
        remedy: 'Change that folder’s settings instead.',
        field: 'path',
      });
    if (o.preset.recursive && within(theirs, real))
      throw new DubdeskError(
        'conflict',
        `${path} is inside ${o.path}, which is already watched with its subfolders`,
        { remedy: 'Watch it without subfolders, or watch that folder only.', field: 'path' },
      );
    if (recursive && within(real, theirs))
      throw new DubdeskError(
        'conflict',
        `${path} with its subfolders would take in ${o.path}, which is already watched`,
        { remedy: 'Watch it without subfolders, or stop watching the other folder first.', field: 'path' },
      );
  }
}

/** The preset with its output folder made absolute (it is resolved once, where the user typed it). */
export function resolvePreset(preset: WatchPreset, cwd: string | null): WatchPreset {
  return {
    ...preset,
    outDir: preset.outDir === null ? null : absolutePath(preset.outDir, cwd, 'preset.outDir'),
  };
}
