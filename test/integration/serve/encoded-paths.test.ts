import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { bearer, raw, serveFor, type Served, stubRenderer } from '../../helpers/serve';

/**
 * The gate decides on the route the router matched, not on how the path is spelled: the router decodes
 * `%61` to `a`, so a gate that read the raw path let `/%61pi/…` through without a token. Every route
 * family, spelled every other way, is refused without the token.
 */
describe('dubdesk serve: a path spelled another way is no way around the token', () => {
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

  const json = { 'content-type': 'application/json' };
  const spellings: [string, string, string?][] = [
    ['POST', '/%61pi/getSettings', '{}'],
    ['POST', '/%61%70%69/getSettings', '{}'],
    ['POST', '/api/%67etSettings', '{}'],
    ['POST', '/%41pi/getSettings', '{}'],
    ['POST', '/API/getSettings', '{}'],
    ['POST', '//api/getSettings', '{}'],
    ['POST', '/./api/getSettings', '{}'],
    ['POST', '/assets/../api/getSettings', '{}'],
    ['POST', '/api/getSettings;x', '{}'],
    ['POST', '/api//getSettings', '{}'],
    ['GET', '/%61pi/events'],
    ['GET', '/%61pi/uploads-folder'],
    ['POST', '/%61pi/media-token', 'null'],
    ['POST', '/%73taging?name=x.mp4', 'bytes'],
    ['POST', '/st%61ging?name=x.mp4', 'bytes'],
    ['GET', '/%6dedia/1/dub'],
    ['HEAD', '/%6dedia/1/dub'],
    ['GET', '/%6dedia/1/original'],
    ['GET', '/media/1/%6friginal'],
    ['GET', '/%6dedia/1/file/0'],
    ['GET', '/%6dedia/results.zip?jobs=1'],
    ['GET', '/media/results%2ezip?jobs=1'],
    ['GET', '/media%2fresults.zip?jobs=1'],
  ];

  it('refuses every encoded or non-canonical spelling of a guarded route without the token', async () => {
    for (const [method, path, body] of spellings) {
      const r = await raw(port, method, path, { headers: json, ...(body ? { body } : {}) });
      expect([400, 401, 404], `${method} ${path}`).toContain(r.status);
      expect(r.status, `${method} ${path}: ${r.body.toString().slice(0, 120)}`).not.toBe(200);
      if (method !== 'HEAD') expect(r.body.toString(), `${method} ${path}`).not.toContain('"ok":true');
    }
  });

  it('refuses a percent-encoded path even with the token: only the canonical spelling is served', async () => {
    for (const [method, path, body] of spellings.filter(([, p]) => p.includes('%'))) {
      const r = await raw(port, method, path, {
        headers: { ...json, ...bearer(token) },
        ...(body ? { body } : {}),
      });
      expect(r.status, `${method} ${path}`).toBe(400);
    }
  });

  it('refuses an unknown API path without the token (no route is public unless marked so)', async () => {
    // An unknown page path is the renderer's (public) route, and that serves its own folder alone.
    expect((await raw(port, 'GET', '/nothing-here')).status).toBe(404);
    expect((await raw(port, 'POST', '/api/noSuchMethod', { headers: json, body: 'null' })).status).toBe(401);
  });

  it('still serves the page and the code exchange without a token', async () => {
    expect((await raw(port, 'GET', '/')).status).toBe(200);
    expect((await raw(port, 'GET', '/index.html')).status).toBe(200);
    const r = await raw(port, 'POST', '/session', { headers: json, body: '{"code":"nope"}' });
    expect(r.status).toBe(401);
    expect(r.json()).toMatchObject({ ok: false, error: { code: 'auth' } });
  });
});
