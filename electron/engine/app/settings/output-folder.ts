import { realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, isAbsolute } from 'node:path';
import { DubdeskError } from '../../../../shared/contract/errors';

/** The kernel's and the devices' folders: nothing Dubdesk writes belongs there. */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'];

const within = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** `path`'s real place: its nearest existing folder resolved (symlinks followed), the rest as given. */
async function realPlace(path: string): Promise<{ real: string; existing: string }> {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    const real = await realpath(existing).catch(() => null);
    if (real !== null) return { real: join(real, ...rest.reverse()), existing };
    const up = dirname(existing);
    if (up === existing) return { real: path, existing };
    rest.push(existing.slice(up.length).replace(/^[\\/]/, ''));
    existing = up;
  }
}

/**
 * An output folder given in the settings (a full path already): a folder there, or one that can be made
 * there (its nearest existing part a folder), and not one of the system's (/proc, /sys, /dev), however it
 * is reached. Anyone with the serve token can change this setting, and `/api/uploads-folder` reports it.
 */
export async function checkOutputFolder(path: string, field: string): Promise<void> {
  const refuse = (why: string) =>
    new DubdeskError('bad-request', `${path} cannot hold results: ${why}`, {
      remedy: 'Choose a folder of your own for the results (for example Videos/Dubdesk in your home folder).',
      field,
    });
  const { real, existing } = await realPlace(path);
  if (process.platform !== 'win32' && SYSTEM_FOLDERS.some((root) => within(root, path) || within(root, real)))
    throw refuse('it is a system folder (/proc, /sys, /dev)');
  const info = await stat(existing).catch(() => null);
  if (!info?.isDirectory())
    throw refuse(existing === path ? 'it is not a folder' : `${existing} is not a folder`);
}
