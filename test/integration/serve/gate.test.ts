import { createServer, connect, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { bearer, raw, serveFor, type Served, stubRenderer } from '../../helpers/serve';

/** Whether a TCP connection to address:port is accepted. */
function reachable(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('dubdesk serve: the gate in front of every route', () => {
  let sb: Sandbox;
  let s: Served;
  let port: number;
  let token: string;

  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    s = await serveFor(sb, { rendererDir: stubRenderer() });
    ({ port, token } = s.server);
  });
  afterAll(async () => {
    await s?.close();
    await sb?.stop();
  });

  /** One request of each route kind: a method, an unknown method, events, media token, staging, media. */
  const routes: [string, string, string?][] = [
    ['POST', '/api/appInfo', 'null'],
    ['POST', '/api/noSuchMethod', 'null'],
    ['GET', '/api/events'],
    ['POST', '/api/media-token', 'null'],
    ['POST', '/staging?name=clip.mp4', 'not really a video'],
    ['GET', '/media/1/dub'],
    ['HEAD', '/media/1/subtitles'],
  ];

  it('refuses every route kind without the token, or with a wrong one, as 401 and a contract error', async () => {
    const wrong: Record<string, string>[] = [
      {},
      { authorization: 'Bearer ' },
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${token.slice(0, -1)}` },
      { authorization: `Bearer ${token}x` },
      { authorization: `Bearer ${token.toUpperCase()}` },
      { authorization: `Basic ${Buffer.from(`user:${token}`).toString('base64')}` },
      { authorization: token },
      { cookie: `token=${token}` },
    ];
    for (const [method, path, body] of routes) {
      for (const headers of wrong) {
        const r = await raw(port, method, path, {
          headers: { 'content-type': 'application/json', ...headers },
          ...(body ? { body } : {}),
        });
        expect(r.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
        if (method !== 'HEAD') expect(r.json()).toMatchObject({ ok: false, error: { code: 'auth' } });
      }
    }
    // The session token never travels in a URL: as a query parameter it is refused, media included.
    for (const path of ['/api/appInfo', '/media/1/dub', '/api/events'])
      for (const key of ['token', 'mt', 'access_token'])
        expect((await raw(port, 'POST', `${path}?${key}=${token}`)).status).toBe(401);
  });

  it('answers with the token', async () => {
    const r = await raw(port, 'POST', '/api/appInfo', {
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: 'null',
    });
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ ok: true, value: { name: 'Dubdesk', shell: 'web' } });
    expect((await s.client.appInfo()).shell).toBe('web');
  });

  it('never writes a token to its log', async () => {
    await s.client.ready;
    const mediaUrl = new URL(s.client.mediaUrl(1, 'dub'));
    const mt = mediaUrl.searchParams.get('mt') ?? '';
    expect(mt).toHaveLength(43);
    await raw(port, 'GET', `${mediaUrl.pathname}${mediaUrl.search}`);
    await raw(port, 'GET', `/media/1/dub?mt=${token}`);
    await raw(port, 'POST', '/api/totals', { headers: bearer(token) });
    await raw(port, 'POST', '/api/totals', { headers: { authorization: 'Bearer wrong' } });
    await s.client.totals();
    expect(s.log.text).toMatch(/\/api\/totals/); // requests are logged...
    expect(s.log.text).toMatch(/\/media\/1\/dub/);
    expect(s.log.text).not.toContain(token); // ...without a token of any kind
    expect(s.log.text).not.toContain(mt);
    expect(s.log.text.toLowerCase()).not.toContain('authorization');
    expect(s.log.text).not.toContain('?');
  });

  it('answers only to its own name: another Host (DNS rebinding) is refused', async () => {
    const hosts = ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `127.0.0.2:${port}`];
    for (const host of hosts) {
      for (const [method, path] of [
        ['GET', '/'],
        ['POST', '/api/appInfo'],
      ] as const) {
        const r = await raw(port, method, path, { headers: { host, ...bearer(token) } });
        expect(r.status, `${host} ${path}`).toBe(421);
        expect(r.json()).toMatchObject({ ok: false, error: { code: 'bad-request' } });
      }
    }
    // No Host at all (HTTP/1.0 allows it): refused too.
    const bare = await new Promise<string>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () =>
        socket.end(`GET / HTTP/1.0\r\nAuthorization: Bearer ${token}\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(bare).toMatch(/^HTTP\/1\.[01] 421 /);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `LOCALHOST:${port}`])
      expect((await raw(port, 'POST', '/api/totals', { headers: { host, ...bearer(token) } })).status).toBe(
        200,
      );
  });

  it('refuses requests from other origins and sites, and sends no CORS header', async () => {
    const refused: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: `http://127.0.0.1:${port + 1}` },
      { origin: `https://127.0.0.1:${port}` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of refused) {
      for (const [method, path] of [
        ['POST', '/api/totals'],
        ['GET', '/media/1/dub'],
        ['GET', '/'],
      ] as const) {
        const r = await raw(port, method, path, { headers: { ...headers, ...bearer(token) } });
        expect(r.status, `${JSON.stringify(headers)} ${path}`).toBe(403);
        expect(r.json()).toMatchObject({ ok: false, error: { code: 'permission' } });
      }
    }
    const allowed: Record<string, string>[] = [
      { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' },
      { origin: `http://localhost:${port}` },
      { 'sec-fetch-site': 'none' },
    ];
    for (const headers of allowed)
      expect(
        (await raw(port, 'POST', '/api/totals', { headers: { ...headers, ...bearer(token) } })).status,
      ).toBe(200);
    // A CORS preflight gets no permission to go on.
    const pre = await raw(port, 'OPTIONS', '/api/totals', {
      headers: {
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(pre.status).toBeGreaterThanOrEqual(400);
    const answers = [pre, await raw(port, 'POST', '/api/totals', { headers: bearer(token) })];
    for (const r of answers)
      expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('refuses a cross-site form post even with the token: contract bodies are JSON only', async () => {
    const r = await raw(port, 'POST', '/api/pauseQueue', {
      headers: { ...bearer(token), 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(r.status).toBe(415);
    expect(r.json()).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect((await s.client.totals()).paused).toBeNull();
  });

  it('serves the page without a token, with its security headers on every answer', async () => {
    const page = await raw(port, 'GET', '/', { headers: { 'sec-fetch-site': 'none' } });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('<div id="root">');
    const api = await raw(port, 'POST', '/api/totals', { headers: bearer(token) });
    const denied = await raw(port, 'POST', '/api/totals');
    for (const r of [page, api, denied]) {
      expect(r.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(r.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
      expect(r.headers['content-security-policy']).toMatch(/media-src 'self'/);
      expect(r.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
    }
    // Nothing above the renderer's folder, however the path is spelled.
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json'])
      expect((await raw(port, 'GET', path)).status).not.toBe(200);
  });

  it('listens on 127.0.0.1 alone: not on another address of the machine', async () => {
    expect(s.server.address).toMatchObject({ address: '127.0.0.1', family: 'IPv4', port });
    expect(await reachable('127.0.0.1', port)).toBe(true);
    expect(await reachable('::1', port)).toBe(false);
    if (process.platform === 'linux') {
      // All of 127/8 is this machine on Linux: a socket bound to every interface answers at 127.0.0.2
      // (the control below), one bound to 127.0.0.1 alone does not.
      const control = createServer((c) => c.destroy());
      await new Promise<void>((r) => control.listen(0, '0.0.0.0', r));
      const controlPort = (control.address() as AddressInfo).port;
      try {
        expect(await reachable('127.0.0.2', controlPort)).toBe(true);
        expect(await reachable('127.0.0.2', port)).toBe(false);
      } finally {
        control.close();
      }
    }
    // The machine's other interfaces: opt-in, since this workplace flags traffic to private addresses
    // even when it never leaves the machine.
    if (process.env.DUBDESK_TEST_OTHER_INTERFACES === '1') {
      const others = Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && !i.internal && i.family === 'IPv4')
        .map((i) => i?.address ?? '');
      for (const address of others) expect(await reachable(address, port), address).toBe(false);
    }
  });
});
