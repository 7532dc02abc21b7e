import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { ApiError } from '../../../electron/engine/api/errors';
import { MAX_API_BODY_BYTES } from '../../../electron/engine/api/limits';
import { V2Client } from '../../../electron/engine/api/v2';
import {
  DUB_V2,
  PROFILE_V2,
  SHORT_LIMITS,
  failure,
  json,
  readBody,
  type Fixture,
  serversClosedAfterEach,
} from '../../helpers/hostile';

const server = serversClosedAfterEach();

function clients(f: Fixture) {
  return createServiceClients({ baseUrl: f.url, legacyUrl: f.url, apiKey: 'k', limits: SHORT_LIMITS });
}

/** Writes `chunk` again and again, respecting backpressure, until the client goes away; resolves with the bytes sent. */
function endless(res: ServerResponse, chunk: Buffer): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0;
    const pump = () => {
      while (!res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    res.once('close', () => resolve(sent));
    pump();
  });
}

describe('API replies are read up to a cap', () => {
  it('an endless reply fails as too-big, and the connection is dropped rather than drained', async () => {
    let sent: Promise<number> = Promise.resolve(0);
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"dubs": [');
      sent = endless(res, Buffer.from('{"id": "x"},'.repeat(1000)));
    });
    const e = await failure(clients(f).v2.list(1));
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ kind: 'too-big', retry: 'bounded' });
    expect((e as ApiError).message).toContain('larger than 64 KiB');
    expect(await sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('a declared Content-Length over the cap fails at once, before the body', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(2.2 * 1024 ** 3).replace(/\..*/, ''),
      });
      res.write('{"id": '); // then nothing: a client that waited for the body would time out instead
    });
    expect(await failure(clients(f).v2.me())).toMatchObject({ kind: 'too-big' });
  });

  it('by default the cap is 8 MiB: a 7.5 MiB page is read, a 9 MiB one is not', async () => {
    const dub = (name: string) => ({ ...DUB_V2, name });
    const pagination = { page: 1, page_size: 100, total: 1, total_pages: 1 };
    let size = 0;
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      const name = 'n'.repeat(size);
      json(res, 200, { dubs: [dub(name)], pagination });
    });
    const v2 = new V2Client(f.url, 'k');
    size = 7.5 * 1024 * 1024;
    expect((await v2.list(1)).dubs[0]?.name).toHaveLength(size);
    size = 9 * 1024 * 1024;
    const e = await failure(v2.list(1));
    expect(e).toMatchObject({ kind: 'too-big' });
    expect((e as ApiError).message).toContain(`larger than ${MAX_API_BODY_BYTES / 1024 / 1024} MiB`);
  });

  it('an endless error body is read only as far as its message could be', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(500, { 'content-type': 'application/json' });
      void endless(res, Buffer.alloc(16 * 1024, 0x20));
    });
    const e = await failure(clients(f).v1.me());
    expect(e).toMatchObject({ kind: 'server', status: 500, retry: 'bounded' });
    expect((e as ApiError).message).toMatch(/^HTTP 500 from /);
  });
});

describe('a reply that is not what was promised', () => {
  it('a body shorter than its Content-Length is truncated, not the network', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '50000' });
      res.write(JSON.stringify(PROFILE_V2).slice(0, 40));
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const e = await failure(clients(f).v2.me());
    expect(e).toMatchObject({ kind: 'truncated', retry: 'bounded', progressed: false });
  });

  it.each([
    ['a fractional Content-Length', 'HTTP/1.1 200 OK\r\ncontent-length: 12.5\r\n\r\n{}'],
    ['not HTTP at all', 'SSH-2.0-OpenSSH_9.6\r\n'],
  ])('%s is a protocol error', async (_name, raw) => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.socket?.end(raw);
    });
    expect(await failure(clients(f).v2.me())).toMatchObject({ kind: 'protocol', retry: 'bounded' });
  });

  it.each([
    ['not JSON', 'text/html', '<html>maintenance</html>'],
    ['JSON of another shape', 'application/json', '{"id": 42}'],
    ['an empty body', 'application/json', ''],
  ])('%s is a protocol error', async (_name, type, body) => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    });
    expect(await failure(clients(f).v2.me())).toMatchObject({ kind: 'protocol', retry: 'bounded' });
  });
});

describe('what the service says is cleaned before it becomes a message', () => {
  it('escape sequences and controls go; the words stay; the length is capped', async () => {
    let error: unknown = '';
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      json(res, 401, { error });
    });
    const { v2 } = clients(f);
    error = '\u001b]0;PWNED\u0007Invalid \u001b[31mAPI\u001b[0m key\r\n\u202eyek';
    const e = (await failure(v2.me())) as ApiError;
    expect(e).toMatchObject({ kind: 'auth', status: 401, retry: 'never' });
    expect(e.message).toMatch(
      /^Invalid API key yek \(HTTP 401 from http:\/\/127\.0\.0\.1:\d+\/api\/v2\/me\)$/,
    );

    error = 'blah '.repeat(2000);
    const long = (await failure(v2.me())) as ApiError;
    expect(long.message.length).toBeLessThan(500);
  });

  it('the dub id of a 502 is cleaned too', async () => {
    const f = await server(async (req, res, seen) => {
      await readBody(req, seen);
      json(res, 502, { error: 'Processing backend unavailable', id: 'dub\u001b[2J-1' });
    });
    const e = await failure(
      clients(f).v2.createFromUrl('https://example.com/a.mp4', {
        dest_lang: 'es',
        source_lang: 'auto',
        name: 'a.mp4',
        is_studio_quality: false,
      }),
    );
    expect(e).toMatchObject({ kind: 'backend', remoteId: 'dub-1', retry: 'bounded' });
  });
});
