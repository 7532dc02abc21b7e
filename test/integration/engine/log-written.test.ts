/**
 * What the engine logs is in the file when it is read back, even while libuv's thread pool is busy (reads of a
 * network share asleep hold its threads: the engine tolerates two such, and a busy machine queues the rest). A
 * job's log is read from the file, so a line still queued for the pool is one the job panel does not show.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, read, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EngineLog, logFile } from '../../../electron/engine/log/log';
import { tempDir } from '../../helpers/temp-dir';

/** Holds every thread of libuv's pool in a read of a FIFO nobody writes, until `release`. */
function holdThePool(): { release(): void } {
  const fifo = join(tempDir(), 'pool-held');
  execFileSync('mkfifo', [fifo]);
  const fd = openSync(fifo, constants.O_RDWR);
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  for (let i = 0; i < threads; i++) read(fd, Buffer.alloc(1), 0, 1, null, () => {});
  return {
    release: () => {
      for (let i = 0; i < threads; i++) writeSync(fd, 'x');
      closeSync(fd);
    },
  };
}

describe('the engine log', () => {
  it('has a job’s line in its file as soon as it is logged, with the thread pool busy', async () => {
    const home = tempDir();
    mkdirSync(dirname(logFile(home)));
    const log = new EngineLog(home, () => []);
    log.logger.info({ jobId: 1 }, 'queued');
    await vi.waitFor(() => expect(log.jobLines(1, 10).map((l) => l.message)).toEqual(['queued']));
    const pool = holdThePool();
    try {
      log.logger.warn({ jobId: 1 }, `cannot write to ${home} (ENOSPC)`);
      expect(log.jobLines(1, 10).map((l) => [l.level, l.message])).toEqual([
        ['info', 'queued'],
        ['warn', `cannot write to ${home} (ENOSPC)`],
      ]);
    } finally {
      pool.release();
      log.close();
    }
  });
});
