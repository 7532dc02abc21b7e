import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { ROUTES, CODE_FRAGMENT_KEY } from '../../../shared/serve-routes';
import { bearer, raw, serveFor, type Served } from '../../helpers/serve';

/** The one-time code an address carries in its fragment. */
function codeOf(address: string): string {
  const code = new URLSearchParams(new URL(address).hash.slice(1)).get(CODE_FRAGMENT_KEY);
  expect(code, address).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return code ?? '';
}

describe('dubdesk serve: the address carries a one-time code, never the session token', () => {
  let sb: Sandbox;
  let s: Served;
  let now = 1_000_000;

  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    s = await serveFor(sb, { clock: () => now });
  });
  afterAll(async () => {
    await s?.close();
    await sb?.stop();
  });

  const exchange = (code: string, headers: Record<string, string> = {}) =>
    raw(s.server.port, 'POST', ROUTES.session, {
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ code }),
    });

  it('gives the session token once for a code, and never again for the same code', async () => {
    const address = s.server.newAddress(60_000);
    expect(address).not.toContain(s.server.token);
    const code = codeOf(address);
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const token = (first.json() as { value: { token: string } }).value.token;
    expect(token).toBe(s.server.token);
    expect(first.headers['cache-control']).toBe('no-store');
    // The token works as the session's.
    const info = await raw(s.server.port, 'POST', ROUTES.method('appInfo'), {
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: '{}',
    });
    expect(info.status).toBe(200);

    const again = await exchange(code);
    expect(again.status).toBe(401);
    expect(again.json()).toMatchObject({ ok: false, error: { code: 'auth' } });
    expect(JSON.stringify(again.json())).not.toContain(s.server.token);
  });

  it('refuses a code past its time, and one it never gave', async () => {
    const code = codeOf(s.server.newAddress(60_000));
    now += 60_001;
    const late = await exchange(code);
    expect(late.status).toBe(401);
    expect((late.json() as { error: { remedy?: string } }).error.remedy).toMatch(/dubdesk serve/);
    expect((await exchange('x'.repeat(43))).status).toBe(401);
    expect((await exchange('')).status).toBe(400);
  });

  it('refuses an exchange another site asks for, even with a good code', async () => {
    const code = codeOf(s.server.newAddress(60_000));
    const foreign = await exchange(code, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(foreign.status).toBe(403);
    // The refused request did not use the code up.
    expect((await exchange(code)).status).toBe(200);
  });

  it('has every address read carry a fresh code', () => {
    expect(codeOf(s.server.url)).not.toBe(codeOf(s.server.url));
  });

  it('keeps the opened address in a 0600 file, deleted once its code is traded, or once it expired', async () => {
    const ends: string[] = [];
    const traded = await s.server.newRedirectFile(60_000, (end) => ends.push(end));
    expect(statSync(traded).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(traded)).mode & 0o777).toBe(0o700);
    const page = readFileSync(traded, 'utf8');
    const address = /url=([^"]+)"/.exec(page)?.[1] ?? '';
    expect(address.startsWith(`${s.server.origin}/#code=`)).toBe(true);
    expect(page).not.toContain(s.server.token);
    expect((await exchange(codeOf(address))).status).toBe(200);
    await vi.waitFor(() => expect(existsSync(traded)).toBe(false));
    expect(ends).toEqual(['traded']);

    // Not traded in time (a browser that cannot read the file): serve is told, and says what to do.
    const expired = await s.server.newRedirectFile(60_000, (end) => ends.push(end));
    now += 60_001;
    // The next request after its time sweeps it, whatever asks.
    expect((await exchange('not-a-code')).status).toBe(401);
    await vi.waitFor(() => expect(existsSync(expired)).toBe(false));
    expect(ends).toEqual(['traded', 'expired']);
  });
});
