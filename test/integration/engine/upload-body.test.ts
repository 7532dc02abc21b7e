import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync, truncateSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { tempDir } from '../../helpers/temp-dir';
import { classify } from '../../../electron/engine/jobs/errors';
import { mulberry32 } from '../../../electron/sandbox/faults';
import type { ApiError } from '../../../electron/engine/api/errors';
import {
  CREATE_V2,
  DUB_V2,
  SHORT_LIMITS,
  failure,
  json,
  readBody,
  type Fixture,
  serversClosedAfterEach,
} from '../../helpers/hostile';

const server = serversClosedAfterEach();
const MiB = 1024 * 1024;

const v1 = (f: Fixture) =>
  createServiceClients({ baseUrl: f.url, legacyUrl: f.url, apiKey: 'k', limits: SHORT_LIMITS }).v1;

async function fileOf(bytes: number): Promise<{ path: string; content: Buffer }> {
  const content = randomBytes(bytes);
  const path = join(tempDir(), 'in.mp4');
  await writeFile(path, content);
  return { path, content };
}

/** Whether this process still holds `path` open (Linux: the links in /proc/self/fd). */
function holdsOpen(path: string): boolean {
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a file as an upload body', () => {
  it('a file cut shorter after it was measured fails naming it, instead of sending less than announced', async () => {
    const { path } = await fileOf(16 * MiB);
    const f = await server(async (req) => {
      let cut = false;
      for await (const c of req) {
        // Synchronously: the test's own handle on the file is closed before the client can fail.
        if (!cut && (c as Buffer).length > 0) truncateSync(path, MiB + 10);
        cut = true;
      }
    });
    const e = await failure(v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4'));
    expect(String(e)).toContain(`${path} changed while it was being sent`);
    expect(holdsOpen(path)).toBe(false);
    // The job waits for the file, not for the network: the app does not show itself offline for it.
    expect(e).toMatchObject({ kind: 'source', retry: 'wait' });
    expect(classify(e)).toMatchObject({ retry: 'wait', waitingCode: 'source', error: { code: 'disk' } });
  });
});

describe('a pre-signed PUT sends the file as it is and never leaves it open', () => {
  it('the service receives every byte, in order', async () => {
    let received: Buffer = Buffer.alloc(0);
    const f = await server(async (req, res, seen) => {
      received = await readBody(req, seen);
      res.writeHead(200);
      res.end();
    });
    const { path, content } = await fileOf(5 * MiB + 12_345);
    await v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4');
    expect(f.seen[0]?.headers['content-length']).toBe(String(content.length));
    expect(sha(received)).toBe(sha(content));
    expect(holdsOpen(path)).toBe(false);
  });

  it('a service that reads slowly still receives every byte as on disk (no buffer refilled while queued)', async () => {
    const hash = createHash('sha256');
    // Seeded, so a failing pattern of stalls can be replayed.
    const random = mulberry32(20);
    const f = await server(async (req, res) => {
      for await (const c of req) {
        hash.update(c as Buffer);
        // Stalls now and then so the socket's queue fills and the client waits on it.
        if (random() < 0.05) await new Promise((r) => setTimeout(r, 5));
      }
      res.writeHead(200);
      res.end();
    });
    const { path, content } = await fileOf(48 * MiB + 99);
    await v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4');
    expect(hash.digest('hex')).toBe(sha(content));
  });

  it('refused part way (403 while the file still goes out): the job hears the refusal, and the file is closed', async () => {
    const f = await server(async (req, res) => {
      let n = 0;
      for await (const c of req) {
        n += (c as Buffer).length;
        if (n >= 2 * MiB && !res.headersSent) json(res, 403, { error: 'Request has expired' });
      }
    });
    const { path } = await fileOf(16 * MiB);
    const e = await failure(v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4'));
    expect(e).toMatchObject({ kind: 'forbidden', status: 403 });
    await vi.waitFor(() => expect(holdsOpen(path)).toBe(false));
  });

  it('cut part way (the connection drops): waits for the network, and the file is closed', async () => {
    const f = await server(async (req, res) => {
      let n = 0;
      for await (const c of req) {
        n += (c as Buffer).length;
        if (n >= 2 * MiB) {
          res.destroy();
          return;
        }
      }
    });
    const { path } = await fileOf(16 * MiB);
    const e = await failure(v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4'));
    expect(e).toMatchObject({ kind: 'network' });
    expect(holdsOpen(path)).toBe(false);
  });

  it('canceled part way: canceled, and the file is closed', async () => {
    const stop = new AbortController();
    const f = await server(async (req) => {
      let n = 0;
      for await (const c of req) {
        n += (c as Buffer).length;
        if (n >= 2 * MiB) stop.abort();
      }
    });
    const { path } = await fileOf(16 * MiB);
    const e = await failure(v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4', stop.signal));
    expect((e as ApiError).kind).toBe('canceled');
    expect(holdsOpen(path)).toBe(false);
  });
});

describe('what the service answers to a file is read no further than it needs', () => {
  it('an answer to a PUT that never ends: the upload is done, and the line is closed', async () => {
    let closed = false;
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200);
      res.on('close', () => (closed = true));
      // 64 KiB at a time, for as long as anybody reads.
      const chunk = Buffer.alloc(64 * 1024, 1);
      while (!res.destroyed && !closed) await new Promise((r) => res.write(chunk, r));
    });
    const { path } = await fileOf(MiB);
    await v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4');
    await vi.waitFor(() => expect(closed).toBe(true));
    expect(holdsOpen(path)).toBe(false);
  });

  it('a v2 create answered with more than an API reply can hold: too big, not read to its end', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(201, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      while (!res.destroyed) await new Promise((r) => res.write(chunk, r));
    });
    const { path } = await fileOf(MiB);
    const e = await failure(
      createServiceClients({
        baseUrl: f.url,
        legacyUrl: f.url,
        apiKey: 'k',
        limits: SHORT_LIMITS,
      }).v2.createFromFile(path, 'video/mp4', CREATE_V2),
    );
    expect(e).toMatchObject({ kind: 'too-big' });
  });

  it('an answer that is not HTTP is broken HTTP, and the file is closed', async () => {
    const f = await server(async (req, _res, seen) => {
      await readBody(req, seen);
      req.socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n');
    });
    const { path } = await fileOf(2 * MiB);
    const e = await failure(v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4'));
    expect(e).toMatchObject({ kind: 'protocol' });
    expect(holdsOpen(path)).toBe(false);
  });
});

/** The file part of a multipart body, checked to be exactly one part ending at the closing boundary. */
function filePart(body: Buffer, contentType: string): Buffer {
  const boundary = /boundary=(.+)$/.exec(contentType)?.[1] ?? '';
  const marker = Buffer.from('filename="in.mp4"\r\nContent-Type: video/mp4\r\n\r\n');
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const start = body.indexOf(marker);
  expect(start).toBeGreaterThan(0);
  expect(body.subarray(body.length - tail.length).equals(tail)).toBe(true);
  return body.subarray(start + marker.length, body.length - tail.length);
}

/** Reads the whole body, stalling every 32nd chunk so the client's socket queue fills and it waits on it. */
async function readStalling(req: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) {
    chunks.push(c as Buffer);
    if (chunks.length % 32 === 0) await new Promise((r) => setTimeout(r, 5));
  }
  return Buffer.concat(chunks);
}

describe('every size around the 1 MiB reads arrives byte-exact through a stalling reader', () => {
  const SIZES = [0, 1, MiB - 1, MiB, MiB + 1, 4 * MiB, 4 * MiB + 1, 9 * MiB + 3];

  it.each(SIZES)('pre-signed PUT of %i bytes', async (size) => {
    let received: Buffer = Buffer.alloc(0);
    const f = await server(async (req, res) => {
      received = await readStalling(req);
      res.writeHead(200);
      res.end();
    });
    const { path, content } = await fileOf(size);
    await v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4');
    expect(f.seen[0]?.headers['content-length']).toBe(String(size));
    expect(sha(received)).toBe(sha(content));
    expect(holdsOpen(path)).toBe(false);
  });

  it.each(SIZES)('v2 create with %i bytes', async (size) => {
    let received: Buffer = Buffer.alloc(0);
    const f = await server(async (req, res) => {
      received = await readStalling(req);
      json(res, 201, DUB_V2);
    });
    const { path, content } = await fileOf(size);
    await createServiceClients({
      baseUrl: f.url,
      legacyUrl: f.url,
      apiKey: 'k',
      limits: SHORT_LIMITS,
    }).v2.createFromFile(path, 'video/mp4', CREATE_V2);
    expect(f.seen[0]?.headers['content-length']).toBe(String(received.length));
    expect(sha(filePart(received, f.seen[0]?.headers['content-type'] ?? ''))).toBe(sha(content));
    expect(holdsOpen(path)).toBe(false);
  });
});
