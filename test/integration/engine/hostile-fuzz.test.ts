import fc from 'fast-check';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClients, type ServiceClients } from '../../../electron/engine/api/clients';
import { ApiError } from '../../../electron/engine/api/errors';
import { tempDir } from '../../helpers/temp-dir';

/** What the raw server does with the next connection: bytes to send, then close, end, or go silent. */
interface Script {
  bytes: Buffer;
  then: 'end' | 'destroy' | 'stall';
}

let script: Script = { bytes: Buffer.alloc(0), then: 'end' };
let server: Server;
let base = '';
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => {});
    const { bytes, then } = script;
    sock.once('data', () => {
      sock.write(bytes);
      if (then === 'end') sock.end();
      if (then === 'destroy') sock.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const status = fc.oneof(
  fc.constantFrom(200, 201, 206, 301, 302, 307, 400, 401, 403, 404, 416, 500, 502),
  fc.integer({ min: 100, max: 999 }),
);
const header = fc.oneof(
  fc.constantFrom(
    'content-type: application/json',
    'content-length: 0',
    'content-length: 10737418240',
    'content-length: 5',
    'content-length: -1',
    'transfer-encoding: chunked',
    'content-encoding: gzip',
    'content-range: bytes 0-4/5',
    'content-range: bytes */0',
    'location: /elsewhere',
    'location: http://[::1]:1/x',
    'location: file:///etc/passwd',
  ),
  fc.tuple(fc.stringMatching(/^[a-z-]{1,12}$/), fc.string({ maxLength: 30 })).map(([k, v]) => `${k}: ${v}`),
);
const body = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc.json({ maxDepth: 3 }).map((s) => Buffer.from(s)),
  fc
    .constantFrom('5\r\nhello\r\n0\r\n\r\n', 'zz\r\nbad chunk', '{"error":"\u001b]0;x\u0007no"}')
    .map((s) => Buffer.from(s)),
);
const scripts: fc.Arbitrary<Script> = fc.oneof(
  fc
    .record({
      status,
      headers: fc.array(header, { maxLength: 5 }),
      body,
      then: fc.constantFrom('end', 'destroy', 'stall'),
    })
    .map(({ status: s, headers, body: b, then }) => ({
      bytes: Buffer.concat([Buffer.from(`HTTP/1.1 ${s} X\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1'), b]),
      then: then as Script['then'],
    })),
  fc.record({
    bytes: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
    then: fc.constantFrom<Script['then']>('end', 'destroy', 'stall'),
  }),
);

const LIMITS = {
  connectMs: 1000,
  idleMs: 150,
  answerMs: 100,
  callMs: 200,
  maxBodyBytes: 1024,
  maxErrorBodyBytes: 256,
};

describe('arbitrary bytes from the service', () => {
  let clients: ServiceClients;
  beforeAll(() => {
    clients = createServiceClients({ baseUrl: base, legacyUrl: base, apiKey: 'k', limits: LIMITS });
  });

  it('end every call in a value or a typed ApiError, never a crash and never a hang', async () => {
    const dir = tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        scripts,
        fc.constantFrom('v2.me', 'v1.list', 'legacy.list', 'langs', 'download', 'put'),
        async (s, call) => {
          script = s;
          const part = join(dir, `p${n++}.part`);
          const calls: Record<string, () => Promise<unknown>> = {
            'v2.me': () => clients.v2.me(),
            'v1.list': () => clients.v1.list(),
            'legacy.list': () => clients.legacy?.list() ?? Promise.resolve(),
            langs: () => clients.langs.targetCodes(),
            download: () => clients.downloads.toPart(`${base}/o`, part),
            put: () => clients.uploads.put(`${base}/u`, fileURLToPath(import.meta.url), 'text/plain'),
          };
          try {
            await calls[call]?.();
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            expect(e.message).not.toContain('\u001b');
          }
        },
      ),
      // Seeded (see CONTRIBUTING.md): seed 1176967780 found the endless redirect below.
      { numRuns: 150, seed: 1176967780 },
    );
  });

  it('a redirect loop whose last answer never ends fails at the chain’s bound, not never', async () => {
    script = {
      bytes: Buffer.from('HTTP/1.1 302 X\r\nlocation: /elsewhere\r\n\r\n{}', 'latin1'),
      then: 'stall',
    };
    await expect(clients.v2.me()).rejects.toMatchObject({ kind: 'redirect' });
  });
});
