import type { ChildProcess } from 'node:child_process';
import { request, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { startServer, type DubdeskServer, type ServeOptions } from '../../electron/web/server';
import { openDubdesk, type DubdeskHost } from '../../electron/engine/index';
import type { Sandbox } from '../../electron/sandbox/server';
import { createWebBridge, type WebBridge } from '../../renderer/src/bridge/web';
import { CODE_FRAGMENT_KEY, ROUTES } from '../../shared/serve-routes';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir';

/** Everything a request log line said, to check what it never says. */
export class LogSink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export interface Served {
  host: DubdeskHost;
  server: DubdeskServer;
  client: WebBridge;
  log: LogSink;
  close(): Promise<void>;
}

/** `dubdesk serve` in this process: an engine on a fresh home talking to `sb`, fastify on 127.0.0.1:0. */
export async function serveFor(
  sb: Sandbox,
  opts: { apiKey?: string; home?: string } & Partial<Omit<ServeOptions, 'engine' | 'log'>> = {},
): Promise<Served> {
  const { apiKey = sb.account.apiKey, home = tempDir(), ...serveOpts } = opts;
  const host = openDubdesk({
    home,
    face: 'web',
    service: { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey },
    backoff: { baseMs: 50, capMs: 400 },
    checkOutputs: true,
  });
  const log = new LogSink();
  const server = await startServer({
    engine: host,
    port: 0,
    rendererDir: null,
    log: { stream: log, level: 'info' },
    // The user's Downloads folder is the test's own: asking for the uploads folder makes it.
    folders: { home: join(home, 'user'), env: {}, platform: 'linux' },
    ...serveOpts,
  });
  const client = createWebBridge({ baseUrl: server.origin, token: server.token });
  return {
    host,
    server,
    client,
    log,
    close: async () => {
      client.close();
      await server.close();
      await host.close();
    },
  };
}

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  json(): unknown;
}

/**
 * One HTTP request with exactly the headers given (fetch would add or forbid some: Host, Origin,
 * Sec-Fetch-*), to the server's port on `address` (127.0.0.1 unless told).
 */
export function raw(
  port: number,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer; address?: string } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: opts.address ?? '127.0.0.1',
        port,
        method,
        path,
        headers: { host: `127.0.0.1:${port}`, ...opts.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body.toString('utf8')) as unknown,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An upload that sends its first bytes and then waits, as a slow or stalled browser would. */
export function heldUpload(
  port: number,
  token: string,
  declared: number,
): { req: ClientRequest; status: Promise<number> } {
  let req!: ClientRequest;
  const status = new Promise<number>((resolve) => {
    req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/staging?name=held.mp4',
        headers: {
          host: `127.0.0.1:${port}`,
          ...bearer(token),
          'content-type': 'application/octet-stream',
          'content-length': String(declared),
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve(0));
    req.write(Buffer.alloc(10));
  });
  return { req, status };
}

/** The first line a child writes on stdout (`dubdesk serve` prints its address there first). */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString();
      const end = text.indexOf('\n');
      if (end >= 0) {
        child.stdout?.off('data', onData);
        resolve(text.slice(0, end));
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing a line`)));
  });
}

/** The environment of a child `dubdesk serve` on `home`, with no service configured from outside. */
export function serveEnv(home: string): NodeJS.ProcessEnv {
  const { DUBDESK_API_KEY: _k, DUBDESK_BASE_URL: _b, DUBDESK_LEGACY_URL: _l, ...env } = process.env;
  // The user's Downloads folder is the test's own (files a browser sends with no folder chosen land there).
  return { ...env, DUBDESK_HOME: home, XDG_DOWNLOAD_DIR: join(home, 'Downloads') };
}

/** What the page does with an address's one-time code: trades it for the session token (once). */
export async function exchangeCode(
  port: number,
  code: string,
): Promise<{ status: number; token: string | null }> {
  const r = await raw(port, 'POST', ROUTES.session, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const body = r.json() as { ok: boolean; value?: { token?: string } };
  return { status: r.status, token: body.value?.token ?? null };
}

/** The session token behind an address `dubdesk serve` printed (its code is used up). */
export async function tokenOfAddress(address: string): Promise<string> {
  const url = new URL(address);
  const code = new URLSearchParams(url.hash.slice(1)).get(CODE_FRAGMENT_KEY) ?? '';
  return (await exchangeCode(Number(url.port), code)).token ?? '';
}

/** A renderer folder holding only an empty page and an assets folder: what the gate tests serve. */
export function stubRenderer(): string {
  const ui = tempDir();
  mkdirSync(join(ui, 'assets'));
  writeFileSync(join(ui, 'index.html'), '<!doctype html><div id="root"></div>');
  return ui;
}
