import { statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DubdeskError } from '../../../shared/contract/errors';
import { formatBytes } from '../../../shared/format';

const MiB = 1024 * 1024;
/** Below this much free space, an I/O error SQLite gives is taken for the disk being full. */
const NEARLY_FULL = MiB;

/** Room to free, rounded up to whole MiB ("2.0 MiB"): what is said is never less than what is needed. */
export const roomToFree = (bytes: number) => formatBytes(Math.max(1, Math.ceil(bytes / MiB)) * MiB);

/** Bytes free for this user on the disk holding `dir`, or null when it cannot be asked. */
export function freeBytes(dir: string): number | null {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return null;
  }
}

/**
 * Whether a failure to write under `dir` is its disk being full: SQLite's SQLITE_FULL, a write refused with
 * ENOSPC or EDQUOT, or an I/O error of SQLite's (its shared memory cannot grow) on a disk with next to no
 * room left.
 */
export function isDiskFull(e: unknown, dir: string): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return true;
  if (!code.startsWith('SQLITE_IOERR')) return false;
  const free = freeBytes(dir);
  return free !== null && free < NEARLY_FULL;
}

/** What the queue's data folder needs to go on: room for its database's log to grow and one backup of it. */
export function dataFolderNeeds(home: string): number {
  let db = 0;
  try {
    db = statSync(join(home, 'dubdesk.db')).size;
  } catch {
    /* not made yet */
  }
  return MiB + db;
}

/** "disk full: free N MiB in DIR", as the output folder's full disk says it. */
export function diskFullError(home: string): DubdeskError {
  const free = freeBytes(home) ?? 0;
  const need = roomToFree(Math.max(0, dataFolderNeeds(home) - free));
  return new DubdeskError('disk', `disk full: free ${need} in ${home}`, {
    remedy: 'Dubdesk goes on by itself once there is room; nothing in the queue is lost.',
  });
}

/**
 * Resolves once the disk holding `home` has what the data folder needs, looking every `everyMs`; early (with
 * false) when `stop` aborts.
 */
export function waitForSpace(home: string, stop: AbortSignal, everyMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const look = () => {
      if (stop.aborted) return done(false);
      if ((freeBytes(home) ?? 0) >= dataFolderNeeds(home)) return done(true);
    };
    const timer = setInterval(look, everyMs);
    const done = (room: boolean) => {
      clearInterval(timer);
      stop.removeEventListener('abort', onStop);
      resolve(room);
    };
    const onStop = () => done(false);
    stop.addEventListener('abort', onStop);
    look();
  });
}
