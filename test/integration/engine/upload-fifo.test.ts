/**
 * A FIFO where a file to send should be: refused, never waited on. A file of its own: the files the stall tests
 * leave stuck stop the engine reading any new file until their reads return, which is not this test's world.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { Http } from '../../../electron/engine/api/http';
import { tempDir } from '../../helpers/temp-dir';
import { SHORT_LIMITS, failure, readBody, serversClosedAfterEach } from '../../helpers/hostile';

const server = serversClosedAfterEach();

describe('a source that is not a regular file', () => {
  it('a FIFO in the file’s place is refused, whether it was there when measured or put there after', async () => {
    const fifo = join(tempDir(), 'pipe.mp4');
    execFileSync('mkfifo', [fifo]);
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200);
      res.end();
    });
    const clients = createServiceClients({
      baseUrl: f.url,
      legacyUrl: f.url,
      apiKey: 'k',
      limits: SHORT_LIMITS,
    });
    expect(String(await failure(clients.v1.upload(`${f.url}/put?sig=1`, fifo, 'video/mp4')))).toContain(
      `${fifo} is no longer a regular file`,
    );
    // Measured as a 10-byte file, a FIFO when opened: refused without waiting for a writer.
    const e = await failure(
      new Http({ limits: SHORT_LIMITS }).send(`${f.url}/put?sig=1`, {
        method: 'PUT',
        body: { length: 10, parts: [{ path: fifo, size: 10 }] },
        headers: { 'content-length': '10' },
        upload: true,
      }),
    );
    expect(String(e)).toContain(`${fifo} is no longer a regular file`);
    expect(f.seen.filter((s) => s.bodyBytes > 0)).toEqual([]);
  });
});
