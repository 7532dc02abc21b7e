import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CODE_FRAGMENT_KEY, ROUTES } from '../../../shared/serve-routes';
import { bearer, raw, serveFor, stubRenderer, type Served } from '../../helpers/serve';

const codeOf = (address: string) =>
  new URLSearchParams(new URL(address).hash.slice(1)).get(CODE_FRAGMENT_KEY) ?? '';

/** What the page's own requests carry: its origin's fetch metadata. */
const OWN_PAGE = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };

describe('dubdesk serve: the browser session cookie', () => {
  let sb: Sandbox;
  let s: Served;
  let port: number;
  let cookie = '';
  let setCookie = '';

  const appInfo = (headers: Record<string, string>) =>
    raw(port, 'POST', ROUTES.method('appInfo'), {
      headers: { 'content-type': 'application/json', ...headers },
      body: 'null',
    });

  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    s = await serveFor(sb, { rendererDir: stubRenderer() });
    port = s.server.port;
    const traded = await raw(port, 'POST', ROUTES.session, {
      headers: { 'content-type': 'application/json', ...OWN_PAGE },
      body: JSON.stringify({ code: codeOf(s.server.newAddress(60_000)) }),
    });
    expect(traded.status).toBe(200);
    setCookie = String(traded.headers['set-cookie'] ?? '');
    cookie = setCookie.split(';', 1)[0] ?? '';
  });
  afterAll(async () => {
    await s?.close();
    await sb?.stop();
  });

  it('is given by a trade: HttpOnly, SameSite=Strict, host-only, for the browser’s session, named for the port', () => {
    expect(cookie).toMatch(new RegExp(`^dubdesk-session-${port}=[A-Za-z0-9_-]{43}$`));
    const attributes = setCookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    expect(setCookie.toLowerCase()).not.toMatch(/domain=|expires=|max-age=/);
    // The cookie is not the session token: a leaked cookie is useless to a script's Bearer header.
    expect(cookie).not.toContain(s.server.token);
  });

  it('opens the API for the page’s own requests, and only those', async () => {
    expect((await appInfo({ cookie, ...OWN_PAGE })).status).toBe(200);
    // No fetch metadata (a program, a browser too old to say): the cookie alone is not enough.
    expect((await appInfo({ cookie })).status).toBe(401);
    // Another port of 127.0.0.1 is the same site, and the browser sends the cookie from it: refused.
    expect((await appInfo({ cookie, ...OWN_PAGE, 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await appInfo({ cookie, ...OWN_PAGE, origin: 'http://127.0.0.1:9' })).status).toBe(403);
    expect((await appInfo({ cookie, ...OWN_PAGE, host: 'rebound.example' })).status).toBe(421);
    // A cookie of another value, or of another server's name, is no session.
    const other = cookie.replace(/=.*/, `=${'x'.repeat(43)}`);
    expect((await appInfo({ cookie: other, ...OWN_PAGE })).status).toBe(401);
    const renamed = cookie.replace(`-${port}=`, `-${port + 1}=`);
    expect((await appInfo({ cookie: renamed, ...OWN_PAGE })).status).toBe(401);
    // Every route behind the session takes it, GETs too (what the event stream, media and uploads send).
    const folder = await raw(port, 'GET', ROUTES.uploadsFolder, { headers: { cookie, ...OWN_PAGE } });
    expect(folder.status).toBe(200);
  });

  it('GET /session says whether the page’s cookie is a live session', async () => {
    const state = async (headers: Record<string, string>) =>
      (await raw(port, 'GET', ROUTES.session, { headers })).json();
    expect(await state({ cookie, ...OWN_PAGE })).toEqual({ ok: true, value: { signedIn: true } });
    expect(await state({ cookie })).toEqual({ ok: true, value: { signedIn: false } });
    expect(await state(OWN_PAGE)).toEqual({ ok: true, value: { signedIn: false } });
  });

  it('POST /session/link gives a fresh one-time address to whoever holds the session, and no one else', async () => {
    const link = await raw(port, 'POST', ROUTES.newLink, { headers: bearer(s.server.token) });
    expect(link.status).toBe(200);
    const address = (link.json() as { value: { address: string } }).value.address;
    expect(address).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#code=[A-Za-z0-9_-]{43}$`));
    expect((await raw(port, 'POST', ROUTES.newLink)).status).toBe(401);
    expect((await raw(port, 'POST', ROUTES.newLink, { headers: { cookie } })).status).toBe(401);
    const traded = await raw(port, 'POST', ROUTES.session, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: codeOf(address) }),
    });
    expect(traded.status).toBe(200);
  });

  it('lets another site open the page in a tab, and nothing else', async () => {
    const nav = {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    expect((await raw(port, 'GET', '/', { headers: nav })).status).toBe(200);
    // A route behind the session, even opened as a page, with the cookie: no.
    expect((await raw(port, 'GET', ROUTES.uploadsFolder, { headers: { ...nav, cookie } })).status).toBe(403);
    // The page fetched by another site's script (not a navigation), or embedded in a frame: no.
    const noCors = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty' };
    expect((await raw(port, 'GET', '/', { headers: noCors })).status).toBe(403);
    expect((await raw(port, 'GET', '/', { headers: { ...nav, 'sec-fetch-dest': 'iframe' } })).status).toBe(
      403,
    );
    // A POST navigation (a form) to the code exchange: no.
    const form = await raw(port, 'POST', ROUTES.session, {
      headers: { ...nav, 'content-type': 'application/json' },
      body: JSON.stringify({ code: codeOf(s.server.newAddress(60_000)) }),
    });
    expect(form.status).toBe(403);
  });

  it('is forgotten when serve stops: the same port served again takes no old cookie', async () => {
    await s.close();
    s = await serveFor(sb, { rendererDir: stubRenderer(), port });
    expect(s.server.port).toBe(port);
    expect((await appInfo({ cookie, ...OWN_PAGE })).status).toBe(401);
  });
});
