import { constants } from 'node:fs';
import { access, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatBytes } from '../../../shared/format';
import { makeFolderSync } from '../files/make-folder';
import { fail, messageOf, pass, type Check } from './check';

/** The Node.js the engine needs (package.json `engines`); Electron 45 ships a newer one. */
export const NODE_MINIMUM = '22.22.0';
/** Below this the queue's downloads fail part-way: say so before they do. */
export const FREE_SPACE_MINIMUM = 200 * 1024 * 1024;

const parts = (v: string) => v.split('.').map((n) => Number.parseInt(n, 10) || 0);
function atLeast(version: string, minimum: string): boolean {
  const [a, b] = [parts(version), parts(minimum)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

export function runtimeCheck(versions: { node: string; electron?: string }): Check {
  const which = versions.electron
    ? `Electron ${versions.electron} (Node.js ${versions.node})`
    : `Node.js ${versions.node}`;
  if (atLeast(versions.node, NODE_MINIMUM)) return pass('Runtime', which);
  return fail(
    'Runtime',
    `${which} is older than Node.js ${NODE_MINIMUM}`,
    `Install Node.js ${NODE_MINIMUM} or newer (https://nodejs.org), then run npm install again.`,
  );
}

const gb = formatBytes;

/**
 * The data folder: there (or creatable, as on a first run), writable (a file is written and removed), and
 * with room left on its drive.
 */
export async function homeCheck(home: string): Promise<Check> {
  const title = 'Data folder';
  const elsewhere = 'or point Dubdesk at another data folder (--home or DUBDESK_HOME)';
  try {
    // One level at a time: Node's recursive mkdir says ENOENT, not EROFS, for a folder on a read-only drive.
    makeFolderSync(home, 0o700);
    const probe = join(home, `.doctor-${process.pid}`);
    await writeFile(probe, 'dubdesk doctor');
    await rm(probe, { force: true });
    await access(home, constants.R_OK | constants.W_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR')
      return fail(
        title,
        `${home} is not a folder (a file is in its place)`,
        `Move that file away, ${elsewhere}.`,
      );
    if (code === 'EROFS')
      return fail(title, `${home} is on a read-only drive`, `Use a writable drive, ${elsewhere}.`);
    if (code === 'EACCES' || code === 'EPERM')
      return fail(
        title,
        `${home} cannot be written (permission denied)`,
        `Give your user write access to it, ${elsewhere}.`,
      );
    if (code === 'ENOSPC') return fail(title, `${home}: the drive is full`, 'Free some space on that drive.');
    return fail(
      title,
      `${home} cannot be written (${messageOf(e)})`,
      `Check the folder and its drive, ${elsewhere}.`,
    );
  }
  try {
    const fs = await statfs(home);
    const free = fs.bavail * fs.bsize;
    if (free < FREE_SPACE_MINIMUM)
      return fail(
        title,
        `${home}: only ${gb(free)} free`,
        'Free some space on that drive: the queue, its logs and downloads in progress live there.',
      );
    return pass(title, `${home} (writable, ${gb(free)} free)`);
  } catch {
    return pass(title, `${home} (writable; free space unknown)`);
  }
}
