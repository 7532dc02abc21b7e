/**
 * The line to the service drops while the read of the file going out hangs (a network share asleep): the
 * failure is told as the file's, at once, not after the read returns (it may never). A file of its own: the
 * engine reads no new file past two stuck ones, and this one stays stuck to the end.
 */
import { copyFileSync, statSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Http } from '../../../electron/engine/api/http';
import { tempDir } from '../../helpers/temp-dir';
import { hangingReads } from '../../helpers/hanging-reads';
import { SHORT_LIMITS, failure } from '../../helpers/hostile';
import { videoMp4 } from '../../helpers/media';

describe('an upload whose read hangs', () => {
  const reads = hangingReads();
  afterAll(() => reads.release());

  it('a line that drops while the read hangs fails naming the file, and does not wait for the read for ever', async () => {
    // The service's end of the line, dropped by the test once the read is known to hang.
    const sockets = new Set<Socket>();
    const line = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => line.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(line.address() as AddressInfo).port}/put?sig=1`;
    const stuck = join(tempDir(), 'stuck-when-the-line-drops.mp4');
    copyFileSync(videoMp4(2), stuck);
    const size = statSync(stuck).size;
    const blockedBefore = reads.blocked();
    try {
      const sending = new Http({ limits: SHORT_LIMITS, reads }).send(url, {
        method: 'PUT',
        body: { length: size, parts: [{ path: stuck, size }] },
        headers: { 'content-length': String(size) },
        upload: true,
      });
      const failed = failure(sending);
      await vi.waitFor(() => expect(reads.blocked()).toBeGreaterThan(blockedBefore), { timeout: 10_000 });
      for (const socket of sockets) socket.destroy();
      expect(String(await failed)).toContain(`reading ${stuck}`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => line.close(resolve));
    }
  });
});
