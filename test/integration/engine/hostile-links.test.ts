import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { Downloads, diskPartFiles, type PartFiles } from '../../../electron/engine/api/download';
import { ApiError } from '../../../electron/engine/api/errors';
import { tempDir } from '../../helpers/temp-dir';
import { SHORT_LIMITS, failure, readBody, sleep, serversClosedAfterEach } from '../../helpers/hostile';

const server = serversClosedAfterEach();

const clients = (base = 'http://127.0.0.1:9') =>
  createServiceClients({ baseUrl: base, legacyUrl: base, apiKey: 'k', limits: SHORT_LIMITS });

describe('links that are not http(s)', () => {
  it.each([
    'file:///etc/passwd',
    'ftp://127.0.0.1/out.mp4',
    'data:video/mp4;base64,AAAA',
    'not a url',
    'javascript:alert(1)',
  ])('an output link %j is a bad link, not the network', async (link) => {
    const e = await failure(clients().downloads.toPart(link, join(tempDir(), 'o.part')));
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ kind: 'bad-link', retry: 'bounded' });
  });

  it.each(['file:///tmp/x', 'ftp://127.0.0.1/up'])('an upload address %j is a bad link', async (link) => {
    const path = join(tempDir(), 'in.mp4');
    await writeFile(path, 'x');
    const { v1, legacy } = clients();
    expect(await failure(v1.upload(link, path, 'video/mp4'))).toMatchObject({ kind: 'bad-link' });
    expect(await failure(legacy?.upload(link, path))).toMatchObject({ kind: 'bad-link' });
  });
});

describe('the network, told apart from the service', () => {
  it('a refused connection is the network: wait', async () => {
    const e = await failure(clients('http://127.0.0.1:9').v2.me());
    expect(e).toMatchObject({ kind: 'network', retry: 'wait' });
  });

  it('a connection dropped before any answer is the network: wait', async () => {
    const raw = createServer((sock) => sock.once('data', () => sock.destroy()));
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    const port = (raw.address() as { port: number }).port;
    try {
      expect(await failure(clients(`http://127.0.0.1:${port}`).v1.me())).toMatchObject({
        kind: 'network',
        retry: 'wait',
      });
    } finally {
      raw.close();
    }
  });
});

describe('a storage server that lies about lengths and ranges', () => {
  it('10 GB promised, 1 KB sent: truncated; progress counts only when the part file grew', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-length': String(10 * 1024 ** 3) }); // ignores Range, every time
      res.write(Buffer.alloc(1024, 1));
      // Time for the client to read the kilobyte before the reset (a reset discards what was not read yet).
      setTimeout(() => res.socket?.destroy(), 1000);
    });
    const { downloads } = clients();
    const part = join(tempDir(), 'o.part');
    const first = await failure(downloads.toPart(`${f.url}/o`, part));
    expect(first).toMatchObject({ kind: 'truncated', bytes: 1024, progressed: true, retry: 'wait' });
    const again = await failure(downloads.toPart(`${f.url}/o`, part));
    expect(f.seen[1]?.headers.range).toBe('bytes=1024-');
    expect(again).toMatchObject({ kind: 'truncated', bytes: 1024, progressed: false, retry: 'bounded' });
  });

  it('bytes that arrive while the part file is still opening are kept when the line then drops', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-length': '100000' });
      res.write(Buffer.alloc(1024, 1));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const slowDisk: PartFiles = {
      open: async (path, append, expected) => {
        await sleep(300); // the line drops meanwhile
        return diskPartFiles.open(path, append, expected);
      },
    };
    const part = join(tempDir(), 'o.part');
    const e = await failure(new Downloads(SHORT_LIMITS, slowDisk).toPart(`${f.url}/o`, part));
    expect(e).toMatchObject({ kind: 'truncated', bytes: 1024, progressed: true, retry: 'wait' });
    expect((await readFile(part)).length).toBe(1024);
  });

  it('a compressed answer is written as sent, never decompressed, and none is asked for', async () => {
    const packed = gzipSync(Buffer.alloc(50_000, 7));
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': packed.length });
      res.end(packed);
    });
    const part = join(tempDir(), 'o.part');
    expect(await clients().downloads.toPart(`${f.url}/o`, part)).toMatchObject({ bytes: packed.length });
    expect((await readFile(part)).equals(packed)).toBe(true);
    expect(f.seen[0]?.headers).not.toHaveProperty('accept-encoding');
    expect(f.seen[0]?.headers['user-agent']).toBe('Dubdesk');
  });

  it('a 206 from another offset than asked is not appended: the part starts over', async () => {
    const part = join(tempDir(), 'o.part');
    await writeFile(part, Buffer.alloc(100, 1));
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(206, { 'content-range': 'bytes 0-99/200', 'content-length': '100' });
      res.end(Buffer.alloc(100, 2));
    });
    const e = await failure(clients().downloads.toPart(`${f.url}/o`, part));
    expect(e).toMatchObject({ kind: 'protocol', retry: 'bounded' });
    expect(existsSync(part)).toBe(false);
  });

  it('a 416 that matches the part file means done; one that does not starts over', async () => {
    const part = join(tempDir(), 'o.part');
    await writeFile(part, Buffer.alloc(300, 1));
    let total = 300;
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(416, { 'content-range': `bytes */${total}` });
      res.end();
    });
    const { downloads } = clients();
    expect(await downloads.toPart(`${f.url}/o`, part)).toMatchObject({ bytes: 300 });
    total = 250;
    expect(await failure(downloads.toPart(`${f.url}/o`, part))).toMatchObject({ kind: 'protocol' });
    expect(existsSync(part)).toBe(false);
  });

  it('a 206 with an unknown total (`*`) keeps what its range says', async () => {
    const part = join(tempDir(), 'o.part');
    await writeFile(part, Buffer.alloc(10, 1));
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(206, { 'content-range': 'bytes 10-19/*', 'content-length': '10' });
      res.end(Buffer.alloc(10, 2));
    });
    // `*` total: the file is as long as the range says, and that is what is kept.
    expect(await clients().downloads.toPart(`${f.url}/o`, part)).toMatchObject({ bytes: 20 });
    expect(await readFile(part)).toEqual(Buffer.concat([Buffer.alloc(10, 1), Buffer.alloc(10, 2)]));
  });

  it('an expired link is forbidden, with the storage message cleaned', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Request has expired\u001b[8m' }));
    });
    const e = (await failure(
      clients().downloads.toPart(`${f.url}/o?sig=1`, join(tempDir(), 'o.part')),
    )) as ApiError;
    expect(e).toMatchObject({ kind: 'forbidden', status: 403, retry: 'never' });
    expect(e.message).toBe(`Request has expired (HTTP 403 from ${f.url}/o?…)`);
  });
});
