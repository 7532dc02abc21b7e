import { diskFullError, isDiskFull, waitForSpace } from '../files/disk-space';
import type { RunnerHooks } from './runner-types';

/**
 * Runs `work` again each time the disk under the data folder `home` fills up (nothing can be recorded):
 * the hooks hear "disk full: free N MiB in DIR", the wait lasts until there is room, and the work takes up
 * from what was recorded. `stopped` is what it comes to when `stop` ends the wait.
 */
export async function againOnceThereIsRoom<T>(
  home: string,
  hooks: Pick<RunnerHooks, 'storage'>,
  stop: AbortSignal,
  stopped: T,
  work: () => Promise<T>,
): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (e) {
      if (!isDiskFull(e, home)) throw e;
      hooks.storage(diskFullError(home).message);
      const room = await waitForSpace(home, stop);
      hooks.storage(null);
      if (!room) return stopped;
    }
  }
}
