import { execFileSync } from 'node:child_process';
import { close, closeSync, constants, openSync, read, readlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceReads } from '../../electron/engine/api/body-stream';
import { tempDir } from './temp-dir';

/** Reads of any file named `stuck…` block in the pool on a FIFO that has a writer (this process) but no data. */
export function hangingReads(): SourceReads & { release(): void; blocked: () => number } {
  const fifo = join(tempDir(), 'share-asleep');
  execFileSync('mkfifo', [fifo]);
  // Read and write ends in one, so an open never waits and a read waits for data rather than ending.
  const fd = openSync(fifo, constants.O_RDWR);
  let blocked = 0;
  const reads = ((
    file: number,
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
    cb: never,
  ) => {
    if (!readlinkSync(`/proc/self/fd/${file}`).includes('stuck')) {
      read(file, buffer, offset, length, position, cb);
      return;
    }
    blocked++;
    read(fd, buffer, offset, 1, null, cb);
  }) as unknown as SourceReads['read'];
  return {
    read: reads,
    close,
    blocked: () => blocked,
    // Lets every blocked read return (one byte each), so the pool's threads are free again.
    release: () => {
      for (let i = 0; i < blocked; i++) writeSync(fd, 'x');
      closeSync(fd);
    },
  };
}
