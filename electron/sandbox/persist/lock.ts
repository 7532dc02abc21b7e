import { randomUUID } from 'node:crypto';
import { link, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxInUseError, SandboxStateError } from './errors';

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

const LOCK_FILE = /^lock\.(\d+)$/;

/**
 * The newest lock generation in `dir` and who holds it. Locks are numbered: taking over a stale
 * `lock.N` means creating `lock.N+1` exclusively, which only one of several starters can do, so two
 * processes finding the same dead holder at the same instant can never both take the directory.
 */
async function newest(dir: string): Promise<{ n: number; path: string; holder: Holder } | null> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let n = -1;
  for (const name of names) {
    const m = LOCK_FILE.exec(name);
    if (m) n = Math.max(n, Number(m[1]));
    else if (name === LOCK) n = Math.max(n, 0);
  }
  if (n < 0) return null;
  const path = join(dir, n === 0 && names.includes(LOCK) ? LOCK : `${LOCK}.${n}`);
  const holder = await readFile(path, 'utf8')
    .then((t) => JSON.parse(t) as Holder)
    .catch(() => ({}));
  return { n, path, holder };
}

const holds = (holder: Holder) => typeof holder.pid === 'number' && alive(holder.pid);

/**
 * Who has `dir` right now: a sandbox answering at `baseUrl`, one that holds the lock but does not listen
 * yet (`starting`: wait for it), or nobody (its last holder stopped or died).
 */
export type SandboxLook =
  { state: 'running'; baseUrl: string; pid: number } | { state: 'starting'; pid: number } | { state: 'free' };

export async function lookUpSandbox(dir: string): Promise<SandboxLook> {
  const found = await newest(dir);
  if (!found || !holds(found.holder)) return { state: 'free' };
  const pid = found.holder.pid as number;
  return typeof found.holder.baseUrl === 'string'
    ? { state: 'running', baseUrl: found.holder.baseUrl, pid }
    : { state: 'starting', pid };
}

/**
 * The base URL of a sandbox that is running on `dir` right now (another process, or this one), or null. A
 * second command can talk to that one instead of failing on the lock.
 */
export async function findRunningSandbox(dir: string): Promise<string | null> {
  const look = await lookUpSandbox(dir);
  return look.state === 'running' ? look.baseUrl : null;
}

/** One sandbox per state directory: two writing the same files would lose each other's changes. */
export async function lockStateDir(
  dir: string,
): Promise<{ setUrl(url: string): Promise<void>; release(): Promise<void> }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await newest(dir);
    if (found && holds(found.holder)) {
      const where = typeof found.holder.baseUrl === 'string' ? ` at ${found.holder.baseUrl}` : '';
      throw new SandboxInUseError(
        `The sandbox state directory ${dir} is in use by another sandbox (process ${String(found.holder.pid)}${where}). ` +
          'Stop that one first, or use another state directory.',
      );
    }
    const path = join(dir, `${LOCK}.${(found?.n ?? 0) + 1}`);
    // The lock appears with its holder already written (a link of a finished file), so nobody can read it
    // empty in between and take it for a dead one.
    const draft = join(dir, `.lock-draft-${process.pid}-${randomUUID()}`);
    await writeFile(draft, JSON.stringify({ pid: process.pid, baseUrl: null }));
    try {
      await link(draft, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue; // another starter won this generation
      throw e;
    } finally {
      await rm(draft, { force: true });
    }
    // Ours now: the generations before it were left by sandboxes that died.
    for (const name of await readdir(dir)) {
      const m = LOCK_FILE.exec(name);
      if (name === LOCK || (m && join(dir, name) !== path)) await rm(join(dir, name), { force: true });
    }
    return {
      // Replaced whole, never rewritten in place: a reader that met it empty would take it for a dead
      // holder's and start a second sandbox on the same directory.
      setUrl: async (baseUrl) => {
        await writeFile(draft, JSON.stringify({ pid: process.pid, baseUrl }));
        await rename(draft, path);
      },
      release: () => rm(path, { force: true }),
    };
  }
  throw new SandboxStateError(
    `Could not lock the sandbox state directory ${dir}: remove its lock files and try again.`,
  );
}
