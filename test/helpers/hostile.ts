import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Bytes of request body the server read. */
  bodyBytes: number;
}

export interface Fixture {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request that reached this server, in order (recorded once its body is read or it is answered). */
  seen: Seen[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void | Promise<void>;

/**
 * A small HTTP server on loopback that misbehaves on purpose: each test gives the handler. It records what
 * arrived (headers, body size) so a test can prove what was or was not sent there.
 * The handler decides whether to read the body; `readBody` below does it and counts.
 */
export async function hostile(handler: Handler): Promise<Fixture> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes: 0 };
    seen.push(s);
    Promise.resolve(handler(req, res, s)).catch(() => res.destroy());
  });
  server.on('connection', (sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `hostile` for the tests of one file: each server is closed after the test that started it. */
export function serversClosedAfterEach(): (handler: Handler) => Promise<Fixture> {
  const fixtures: Fixture[] = [];
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((f) => f.close()));
  });
  return async (handler) => {
    const f = await hostile(handler);
    fixtures.push(f);
    return f;
  };
}

/** Reads and counts the request body. */
export async function readBody(req: IncomingMessage, seen: Seen): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) {
    const b = c as Buffer;
    seen.bodyBytes += b.length;
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A valid v2 profile, for servers that answer `/me` properly. */
export const PROFILE_V2 = {
  id: 'u1',
  email: 'a@example.com',
  name: 'A',
  username: 'a',
  first_name: null,
  last_name: null,
  seconds: 100,
  default_dub_lang: 'en',
  subscription_status: null,
  subscription_plan: null,
  created_at: '2026-01-01T00:00:00Z',
};

/** A v2 dub just created (queued), as the service answers a create. */
export const DUB_V2 = {
  id: 'd1',
  dubbing_id: 'd1',
  project_id: 'p1',
  name: 'in.mp4',
  type: 'video/mp4',
  source_lang: 'auto',
  dest_lang: 'es',
  external_status_id: 2,
  progress_percentage: 0,
  external_error_message: null,
  duration: 3,
  measured_duration: null,
  is_studio_quality: false,
  source: 'api',
  created_at: '2026-01-01T00:00:00Z',
  outputs: {},
};

/** The fields of a v2 create for that dub. */
export const CREATE_V2 = { dest_lang: 'es', source_lang: 'auto', name: 'in.mp4', is_studio_quality: false };

/** Short limits so that deadlines and caps are reached in milliseconds, not minutes. */
export const SHORT_LIMITS = {
  connectMs: 2_000,
  idleMs: 1_500,
  answerMs: 600,
  callMs: 1_200,
  maxBodyBytes: 64 * 1024,
  maxErrorBodyBytes: 4 * 1024,
};

/** Settles a promise into its error (or fails the test if it resolved). */
export async function failure(p: Promise<unknown> | undefined): Promise<unknown> {
  if (!p) throw new Error('no call was made');
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure, but the call succeeded');
}
