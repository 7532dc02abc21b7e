import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

const errno = (code: string, message: string, path: string) =>
  Object.assign(new Error(`${code}: ${message}, mkdir '${path}'`), { code, path });

/**
 * `mkdir -p`, one level at a time. Node's `mkdir(dir, { recursive: true })` never returns where a folder
 * exists but takes no new entries (`/proc/x`: ENOENT for the child, EEXIST for the parent, and again),
 * and a job stuck there spun at full CPU and could not be stopped. Here such a folder fails with EACCES,
 * and a file in the way with ENOTDIR.
 */
export async function makeFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let p = resolve(dir); ;) {
    const info = await stat(p).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (info) {
      if (!info.isDirectory()) throw errno('ENOTDIR', 'not a directory', p);
      break;
    }
    missing.push(p);
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  for (const p of missing.reverse())
    await mkdir(p).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'EEXIST') return;
      if (e.code === 'ENOENT') throw errno('EACCES', 'the folder above takes no new folders', p);
      throw e;
    });
}

/** `makeFolder`, synchronously (for the data folder, made before anything else runs), with a mode. */
export function makeFolderSync(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let p = resolve(dir); ;) {
    const info = statSync(p, { throwIfNoEntry: false });
    if (info) {
      if (!info.isDirectory()) throw errno('ENOTDIR', 'not a directory', p);
      break;
    }
    missing.push(p);
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p, mode);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code === 'ENOENT') throw errno('EACCES', 'the folder above takes no new folders', p);
      throw e;
    }
  }
}
