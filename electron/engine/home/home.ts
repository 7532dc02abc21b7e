import { chmodSync, closeSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DubdeskError } from '../../../shared/contract/errors';
import { makeFolderSync } from '../files/make-folder';

/** The desktop app's data folder (Electron's userData for "Dubdesk"), shared with the CLI by default. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Dubdesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Dubdesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Dubdesk');
}

/** Owner-only where the OS has modes: the folder holds pre-signed links, logs and maybe the API key. */
function chmodQuietly(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    /* not ours to change (a shared folder the user pointed us at), or no modes on this file system */
  }
}

/**
 * A data folder (or a file in it) that cannot be used, as one line naming it and the way out, instead of
 * a raw errno (or, for the log file, an unhandled 'error' event).
 */
function unusable(path: string, e: unknown): DubdeskError {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'it cannot be written (permission denied)'
      : code === 'EROFS'
        ? 'it is on a read-only file system'
        : code === 'ENOTDIR'
          ? 'a file is in the way'
          : code === 'ENOSPC'
            ? 'the disk is full'
            : (e as Error).message;
  return new DubdeskError(
    code === 'ENOSPC' ? 'disk' : 'permission',
    `Dubdesk cannot use its data folder: ${path}: ${why}.`,
    { remedy: 'Make that folder writable for you, or point DUBDESK_HOME (or --home) at one that is.' },
  );
}

/** Creates the data folder (and the folders named) readable by the user only. */
export function prepareHome(home: string, ...subdirs: string[]): void {
  for (const dir of [home, ...subdirs.map((s) => join(home, s))]) {
    try {
      makeFolderSync(dir, 0o700);
    } catch (e) {
      throw unusable(dir, e);
    }
    chmodQuietly(dir, 0o700);
  }
}

/**
 * A file of the data folder, created (if missing) and kept readable by the user only. Opened for writing
 * here, so a file that cannot be written is named now rather than failing later in a stream.
 */
export function privateFile(path: string): string {
  chmodQuietly(path, 0o600);
  try {
    closeSync(openSync(path, 'a', 0o600));
  } catch (e) {
    throw unusable(path, e);
  }
  return path;
}
