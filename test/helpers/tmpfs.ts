import { spawnSync } from 'node:child_process';
import { tempDir } from './temp-dir';

/** A real size-limited folder: a tmpfs, where the container lets us mount one (as root); null elsewhere. */
export function tmpfs(size: string): string | null {
  const dir = tempDir('dubdesk-tmpfs-');
  if (process.getuid?.() !== 0) return null;
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  return r.status === 0 ? dir : null;
}

/** Whether this machine lets the tests mount a tmpfs (tried once, then unmounted). */
export function canMountTmpfs(): boolean {
  const probe = tmpfs('1m');
  if (probe) spawnSync('umount', [probe]);
  return probe !== null;
}
