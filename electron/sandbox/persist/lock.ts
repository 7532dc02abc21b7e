import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxStateError } from './errors';

const LOCK = 'lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Holder {
  pid?: unknown;
  baseUrl?: unknown;
}

async function readHolder(path: string): Promise<Holder> {
  return readFile(path, 'utf8')
    .then((t) => JSON.parse(t) as Holder)
    .catch(() => ({}));
}

/**
 * The base URL of a sandbox that is running on `dir` right now (another process, or this one), or null. A
 * second command can talk to that one instead of failing on the lock.
 */
export async function findRunningSandbox(dir: string): Promise<string | null> {
  const holder = await readHolder(join(dir, LOCK));
  return typeof holder.pid === 'number' && alive(holder.pid) && typeof holder.baseUrl === 'string'
    ? holder.baseUrl
    : null;
}

/** One sandbox per state directory: two writing the same files would lose each other's changes. */
export async function lockStateDir(
  dir: string,
): Promise<{ setUrl(url: string): Promise<void>; release(): Promise<void> }> {
  const path = join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(JSON.stringify({ pid: process.pid, baseUrl: null }));
      await handle.close();
      return {
        setUrl: (baseUrl) => writeFile(path, JSON.stringify({ pid: process.pid, baseUrl })),
        release: () => rm(path, { force: true }),
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = await readHolder(path);
      if (typeof holder.pid === 'number' && alive(holder.pid)) {
        const where = typeof holder.baseUrl === 'string' ? ` at ${holder.baseUrl}` : '';
        throw new SandboxStateError(
          `The sandbox state directory ${dir} is in use by another sandbox (process ${holder.pid}${where}). ` +
            'Stop that one first, or use another state directory.',
        );
      }
      // Left behind by a sandbox that was killed: nobody holds it.
      await rm(path, { force: true });
    }
  }
  throw new SandboxStateError(
    `Could not lock the sandbox state directory ${dir}: remove ${path} and try again.`,
  );
}
