import { randomUUID } from 'node:crypto';
import { link, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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
 * The base URL of a sandbox that is running on `dir` right now (another process, or this one), or null. A
 * second command can talk to that one instead of failing on the lock.
 */
export async function findRunningSandbox(dir: string): Promise<string | null> {
  const found = await newest(dir);
  return found && holds(found.holder) && typeof found.holder.baseUrl === 'string'
    ? found.holder.baseUrl
    : null;
}

/** One sandbox per state directory: two writing the same files would lose each other's changes. */
export async function lockStateDir(
  dir: string,
): Promise<{ setUrl(url: string): Promise<void>; release(): Promise<void> }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await newest(dir);
    if (found && holds(found.holder)) {
      const where = typeof found.holder.baseUrl === 'string' ? ` at ${found.holder.baseUrl}` : '';
      throw new SandboxStateError(
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
      setUrl: (baseUrl) => writeFile(path, JSON.stringify({ pid: process.pid, baseUrl })),
      release: () => rm(path, { force: true }),
    };
  }
  throw new SandboxStateError(
    `Could not lock the sandbox state directory ${dir}: remove its lock files and try again.`,
  );
}
