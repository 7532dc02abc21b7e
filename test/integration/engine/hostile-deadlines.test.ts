import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { tempDir } from '../../helpers/temp-dir';
import {
  CREATE_V2,
  DUB_V2,
  PROFILE_V2,
  SHORT_LIMITS,
  failure,
  json,
  readBody,
  sleep,
  type Fixture,
  type Handler,
  serversClosedAfterEach,
} from '../../helpers/hostile';

const server = serversClosedAfterEach();

const clients = (f: Fixture, limits = SHORT_LIMITS) =>
  createServiceClients({ baseUrl: f.url, legacyUrl: f.url, apiKey: 'k', limits });

/** Each pause is shorter than the idle limit, all of them together longer than every deadline. */
const PAUSE = SHORT_LIMITS.idleMs / 3;
const PAUSES = Math.ceil((SHORT_LIMITS.callMs * 1.5) / PAUSE);

/**
 * Limits for an upload the service reads slowly: the idle limit counts bytes the kernel has taken, and on
 * loopback its buffers (megabytes) hide a reader's pauses until it reads fast again, so the whole slow phase
 * must fit in it. The slow phase is still longer than every deadline.
 */
const SLOW_READER_LIMITS = { ...SHORT_LIMITS, idleMs: 3 * PAUSE * PAUSES };

const CREATE = CREATE_V2;
const DUB = DUB_V2;

async function bigFile(mb: number): Promise<string> {
  const path = join(tempDir(), 'in.mp4');
  await writeFile(path, Buffer.alloc(mb * 1024 * 1024, 1));
  return path;
}

/** Reads a request body slowly at first (the client is held back: the file is far bigger than the buffers), then at once. */
async function slowThenFast(req: Parameters<Handler>[0], seen: Fixture['seen'][number]) {
  let pauses = 0;
  for await (const c of req) {
    seen.bodyBytes += (c as Buffer).length;
    if (pauses < PAUSES) {
      pauses++;
      req.pause();
      await sleep(PAUSE);
      req.resume();
    }
  }
}

describe('API calls have deadlines, not only idle limits', () => {
  it('a reply trickled a byte at a time fails as a timeout', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; !res.destroyed; i++) {
        res.write(' ');
        await sleep(50);
      }
    });
    const e = await failure(clients(f).v2.me());
    expect(e).toMatchObject({ kind: 'timeout', retry: 'bounded' });
  });

  it('a service that never answers is waited for like the network', async () => {
    const f = await server(async (req, _res, seen) => {
      await readBody(req, seen); // and then nothing
    });
    const e = await failure(clients(f).v1.list());
    expect(e).toMatchObject({ kind: 'network', retry: 'wait' });
    expect((e as Error).message).toContain('no answer');
  });

  it('a reply that stalls half way fails as a timeout', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(JSON.stringify(PROFILE_V2).slice(0, 30));
    });
    expect(await failure(clients(f).legacy?.list())).toMatchObject({ kind: 'timeout', retry: 'bounded' });
  });
});

describe('a canceled call', () => {
  it('ends at once as canceled, whether waiting for the answer or in the middle of a body', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      if (req.url === '/o') {
        res.writeHead(200, { 'content-length': '1000' });
        res.write(Buffer.alloc(10));
      }
    });
    const { v2, downloads } = clients(f);
    const early = new AbortController();
    const pending = failure(v2.me(early.signal));
    early.abort();
    expect(await pending).toMatchObject({ kind: 'canceled', retry: 'never' });

    const late = new AbortController();
    const download = failure(
      downloads.toPart(`${f.url}/o`, join(tempDir(), 'o.part'), {
        signal: late.signal,
        onProgress: () => late.abort(),
      }),
    );
    expect(await download).toMatchObject({ kind: 'canceled' });
  });
});

describe('uploads have idle limits while the file goes out, and a deadline for the answer', () => {
  it('v2 create: a slow upload is not cut off by the call deadline', async () => {
    const f = await server(async (req, res, seen) => {
      await slowThenFast(req, seen);
      json(res, 201, DUB);
    });
    const path = await bigFile(48);
    const progress: number[] = [];
    const dub = await clients(f, SLOW_READER_LIMITS).v2.createFromFile(
      path,
      'video/mp4',
      CREATE,
      undefined,
      (t) => progress.push(t),
    );
    expect(dub).toMatchObject({ id: 'd1' });
    expect(f.seen[0]?.bodyBytes).toBeGreaterThan(48 * 1024 * 1024);
    expect(progress.at(-1)).toBe(f.seen[0]?.bodyBytes);
  });

  it('v2 create: no answer after the upload is no answer', async () => {
    const f = await server(async (req, _res, seen) => {
      await readBody(req, seen);
    });
    const e = await failure(clients(f).v2.createFromFile(await bigFile(1), 'video/mp4', CREATE));
    expect(e).toMatchObject({ kind: 'network', retry: 'wait' });
    expect((e as Error).message).toContain('no answer');
  });

  it('v2 create: an answer trickled after the upload fails as a timeout', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(201, { 'content-type': 'application/json' });
      while (!res.destroyed) {
        res.write(' ');
        await sleep(50);
      }
    });
    const e = await failure(clients(f).v2.createFromFile(await bigFile(1), 'video/mp4', CREATE));
    expect(e).toMatchObject({ kind: 'timeout' });
  });

  it.each(['v2 create', 'pre-signed PUT'])(
    '%s: a service that stops reading the file fails as a stall, not a hang',
    async (kind) => {
      const f = await server((req, _res, seen) => {
        req.once('data', (c: Buffer) => {
          seen.bodyBytes += c.length;
          req.pause(); // and never reads again, nor answers
        });
      });
      const path = await bigFile(48);
      const { v2, v1 } = clients(f);
      // No clock read: a hang is the test's own timeout; what is checked is which limit ended it.
      const e = await failure(
        kind === 'v2 create'
          ? v2.createFromFile(path, 'video/mp4', CREATE)
          : v1.upload(`${f.url}/put?sig=1`, path, 'video/mp4'),
      );
      expect(e).toMatchObject({ kind: 'network', retry: 'wait' });
      // The idle limit on the bytes going out ended it (socket), not a deadline of the whole call.
      expect((e as Error).message).toMatch(/in time \(socket timeout\)$/);
      expect(f.seen[0]?.bodyBytes).toBeLessThan(48 * 1024 * 1024);
    },
  );

  it('pre-signed PUT: a slow upload is not cut off either', async () => {
    const f = await server(async (req, res, seen) => {
      await slowThenFast(req, seen);
      res.writeHead(200);
      res.end();
    });
    const path = await bigFile(48);
    const progress: number[] = [];
    await clients(f, SLOW_READER_LIMITS).v1.upload(`${f.url}/put?sig=1`, path, 'video/mp4', undefined, (t) =>
      progress.push(t),
    );
    expect(f.seen[0]?.bodyBytes).toBe(48 * 1024 * 1024);
    expect(progress.at(-1)).toBe(48 * 1024 * 1024);
  });
});

describe('downloads have idle limits only', () => {
  it('a slow but steady download completes', async () => {
    const payload = Buffer.alloc(PAUSES * 1000, 9);
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-length': payload.length });
      for (let i = 0; i < PAUSES; i++) {
        res.write(payload.subarray(i * 1000, (i + 1) * 1000));
        await sleep(PAUSE);
      }
      res.end();
    });
    const part = join(tempDir(), 'o.part');
    expect(await clients(f).downloads.toPart(`${f.url}/o`, part)).toMatchObject({ bytes: payload.length });
    expect((await readFile(part)).equals(payload)).toBe(true);
  });

  it('a download that stalls after some bytes times out as progressed, and the next attempt resumes', async () => {
    const payload = Buffer.from(Array.from({ length: 10_000 }, (_, i) => i % 251));
    let stall = true;
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
      const body = payload.subarray(from);
      res.writeHead(from ? 206 : 200, {
        'content-length': body.length,
        ...(from ? { 'content-range': `bytes ${from}-${payload.length - 1}/${payload.length}` } : {}),
      });
      if (stall) res.write(body.subarray(0, 4000));
      else res.end(body);
    });
    const { downloads } = clients(f);
    const part = join(tempDir(), 'o.part');
    const e = await failure(downloads.toPart(`${f.url}/o`, part));
    expect(e).toMatchObject({ kind: 'timeout', progressed: true, bytes: 4000, retry: 'wait' });
    stall = false;
    expect(await downloads.toPart(`${f.url}/o`, part)).toMatchObject({ bytes: payload.length });
    expect(f.seen[1]?.headers.range).toBe('bytes=4000-');
    expect((await readFile(part)).equals(payload)).toBe(true);
  });
});
