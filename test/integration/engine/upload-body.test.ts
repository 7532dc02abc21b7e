import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { FileChangedError, rawFileBody, UPLOAD_READ_BYTES } from '../../../electron/engine/api/file-body';
import { tempDir } from '../../helpers/engine';
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
  it('gives exactly the file, in reads of at most 1 MiB, and closes it at the end', async () => {
    const { path, content } = await fileOf(2.5 * UPLOAD_READ_BYTES + 7);
    const { chunks: read, length } = await rawFileBody(path);
    expect(length).toBe(content.length);
    const chunks: Buffer[] = [];
    for await (const chunk of read(() => false)) chunks.push(chunk);
    expect(chunks.map((c) => c.length)).toEqual([
      UPLOAD_READ_BYTES,
      UPLOAD_READ_BYTES,
      UPLOAD_READ_BYTES / 2 + 7,
    ]);
    expect(sha(Buffer.concat(chunks))).toBe(sha(content));
    expect(holdsOpen(path)).toBe(false);
  });

  it('an empty file is an empty body, and nothing is opened for it', async () => {
    const { path } = await fileOf(0);
    const { chunks: read, length } = await rawFileBody(path);
    const chunks: Buffer[] = [];
    for await (const chunk of read(() => true)) chunks.push(chunk);
    expect([length, chunks.length]).toEqual([0, 0]);
  });

  it('a file cut shorter after it was measured fails naming it, instead of sending less than announced', async () => {
    const { path } = await fileOf(3 * UPLOAD_READ_BYTES);
    const body = (await rawFileBody(path)).chunks(() => false);
    await truncate(path, UPLOAD_READ_BYTES + 10);
    const got: number[] = [];
    const error = await (async () => {
      for await (const chunk of body) got.push(chunk.length);
    })().catch((e: unknown) => e);
    expect(got).toEqual([UPLOAD_READ_BYTES, 10]);
    expect(error).toBeInstanceOf(FileChangedError);
    expect(String(error)).toContain(path);
    expect(holdsOpen(path)).toBe(false);
  });

  it('refills a read buffer only once the socket is done with it', async () => {
    const { path, content } = await fileOf(12 * UPLOAD_READ_BYTES);
    const { chunks: read } = await rawFileBody(path);
    const seen = new Set<ArrayBufferLike>();
    const hash = createHash('sha256');
    // Nothing is ever written: every read needs a buffer of its own.
    for await (const chunk of read(() => false)) seen.add(chunk.buffer);
    expect(seen.size).toBe(12);
    seen.clear();
    // A socket that writes each chunk only after the next one is handed over (and takes its time): a few
    // buffers serve the whole file, and none is refilled while the socket still holds it.
    let written = 0;
    let held: Buffer | null = null;
    for await (const chunk of read((offset) => offset <= written)) {
      seen.add(chunk.buffer);
      if (held) {
        await new Promise((r) => setTimeout(r, 5));
        hash.update(held);
        written += held.length;
      }
      held = chunk;
    }
    if (held) hash.update(held);
    expect(seen.size).toBeLessThanOrEqual(4);
    expect(hash.digest('hex')).toBe(sha(content));
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
    const { path, content } = await fileOf(5 * UPLOAD_READ_BYTES + 12_345);
    await v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4');
    expect(f.seen[0]?.headers['content-length']).toBe(String(content.length));
    expect(sha(received)).toBe(sha(content));
    expect(holdsOpen(path)).toBe(false);
  });

  it('a service that reads slowly still receives every byte as on disk (no buffer refilled while queued)', async () => {
    const hash = createHash('sha256');
    const f = await server(async (req, res) => {
      for await (const c of req) {
        hash.update(c as Buffer);
        // Stalls now and then so the socket's queue fills and the client waits on it.
        if (Math.random() < 0.05) await new Promise((r) => setTimeout(r, 5));
      }
      res.writeHead(200);
      res.end();
    });
    const { path, content } = await fileOf(48 * UPLOAD_READ_BYTES + 99);
    await v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4');
    expect(hash.digest('hex')).toBe(sha(content));
  });

  it('refused part way (403 while the file still goes out): the job hears the refusal, and the file is closed', async () => {
    const f = await server(async (req, res) => {
      let n = 0;
      for await (const c of req) {
        n += (c as Buffer).length;
        if (n >= 2 * UPLOAD_READ_BYTES && !res.headersSent) json(res, 403, { error: 'Request has expired' });
      }
    });
    const { path } = await fileOf(16 * UPLOAD_READ_BYTES);
    const e = await failure(v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4'));
    expect(e).toMatchObject({ kind: 'forbidden', status: 403 });
    await vi.waitFor(() => expect(holdsOpen(path)).toBe(false));
  });

  it('cut part way (the connection drops): waits for the network, and the file is closed', async () => {
    const f = await server(async (req, res) => {
      let n = 0;
      for await (const c of req) {
        n += (c as Buffer).length;
        if (n >= 2 * UPLOAD_READ_BYTES) {
          res.destroy();
          return;
        }
      }
    });
    const { path } = await fileOf(16 * UPLOAD_READ_BYTES);
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
        if (n >= 2 * UPLOAD_READ_BYTES) stop.abort();
      }
    });
    const { path } = await fileOf(16 * UPLOAD_READ_BYTES);
    const e = await failure(v1(f).upload(`${f.url}/put?sig=1`, path, 'video/mp4', stop.signal));
    expect((e as ApiError).kind).toBe('canceled');
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
  const MiB = UPLOAD_READ_BYTES;
  const SIZES = [1, MiB - 1, MiB, MiB + 1, 4 * MiB, 4 * MiB + 1, 9 * MiB + 3];

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
