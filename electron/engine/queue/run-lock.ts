import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class QueueBusyError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One runner per data folder (desktop app, CLI or serve). A lock left by a killed process is taken over,
 * which is what lets the new runner clear every lease at start.
 */
export function acquireRunLock(home: string): () => void {
  const file = join(home, 'run.lock');
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new QueueBusyError(
          `another Dubdesk (pid ${pid}) is already running this queue in ${home}; let it finish or stop it first.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new QueueBusyError(`cannot take the queue lock ${file}`);
}
