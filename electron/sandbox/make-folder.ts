import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p`, one level at a time: the engine's `outputs/make-folder.ts`, which the sandbox may not import
 * (it never borrows the engine's code). Node's recursive mkdir never returns where a folder exists but takes
 * no new entries (`/proc/x`), and a state folder there spun at full CPU; here it fails with EACCES.
 */
export async function makeFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let p = resolve(dir); ;) {
    const info = await stat(p).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (info) break;
    missing.push(p);
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  for (const p of missing.reverse())
    await mkdir(p).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'EEXIST') return;
      if (e.code === 'ENOENT')
        throw Object.assign(new Error(`EACCES: the folder above takes no new folders, mkdir '${p}'`), {
          code: 'EACCES',
        });
      throw e;
    });
}
