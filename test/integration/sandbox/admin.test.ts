import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LangList } from '../../../shared/api/common';
import { InitDubV1Response } from '../../../shared/api/v1';
import { DubV2 } from '../../../shared/api/v2';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { startCli } from '../../helpers/cli';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { videoMp4 } from '../../helpers/media';

const KEY = 'admin-test-key';
const OTHER = 'admin-other-key';
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ apiKey: KEY, users: [{ apiKey: OTHER, seconds: 5 }], pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

/** A raw request with a forged Host header, which fetch does not let a caller set. */
function withHost(
  method: string,
  path: string,
  host: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${sb.baseUrl}${path}`, { method, headers: { ...headers, host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('admin routes', () => {
  it('need the admin token: 401 without it or with a wrong one', async () => {
    expect(sb.adminToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const attempts: Record<string, string>[] = [{}, { 'x-sandbox-admin': 'guess' }, { apikey: KEY }];
    for (const headers of attempts) {
      const state = await call('GET', `${sb.baseUrl}/__sandbox/state`, { headers });
      expect(state.status).toBe(401);
      expect(state.body).toMatchObject({ error: expect.stringMatching(/admin/) });
      const clock = await call('POST', `${sb.baseUrl}/__sandbox/clock`, {
        headers,
        json: { advanceSeconds: 3600 },
      });
      expect(clock.status).toBe(401);
    }
    expect(sb.state.clockOffsetMs).toBe(0);
  });

  it('take a token given as an option', async () => {
    const own = await startSandbox({ adminToken: 'a-token-the-test-chose-0123456789' });
    try {
      expect(own.adminToken).toBe('a-token-the-test-chose-0123456789');
      const r = await call('GET', `${own.baseUrl}/__sandbox/state`, {
        headers: { 'x-sandbox-admin': 'a-token-the-test-chose-0123456789' },
      });
      expect(r.status).toBe(200);
    } finally {
      await own.stop();
    }
  });

  it('refuse a cross-site simple POST: JSON only (415 otherwise), even with the token', async () => {
    const admin = { 'x-sandbox-admin': sb.adminToken };
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await call('POST', `${sb.baseUrl}/__sandbox/clock`, {
        headers: { ...admin, 'content-type': type },
        body: '{"advanceSeconds":3600}',
      });
      expect(r.status, type).toBe(415);
    }
    const noType = await call('PUT', `${sb.baseUrl}/__sandbox/faults`, {
      headers: admin,
      body: '{"rate502":1}',
    });
    expect(noType.status).toBe(415);
    expect(sb.state.clockOffsetMs).toBe(0);
    expect(sb.faults.get().rate502).toBe(0);
    for (const advanceSeconds of [1e300, -1e300, 'soon']) {
      const r = await call('POST', `${sb.baseUrl}/__sandbox/clock`, {
        headers: admin,
        json: { advanceSeconds },
      });
      expect(r.status, String(advanceSeconds)).toBe(400);
    }
    const ok = await call('POST', `${sb.baseUrl}/__sandbox/clock`, {
      headers: admin,
      json: { advanceSeconds: 0 },
    });
    expect(ok.status).toBe(200);
  });

  it('never show an API key, only a fingerprint', async () => {
    const r = await call('GET', `${sb.baseUrl}/__sandbox/state`, {
      headers: { 'x-sandbox-admin': sb.adminToken },
    });
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(OTHER);
    const accounts = (r.body as { accounts: Record<string, unknown>[] }).accounts;
    expect(accounts).toHaveLength(2);
    for (const a of accounts) {
      expect(a).not.toHaveProperty('apiKey');
      expect(a.keyFingerprint).toMatch(/^[0-9a-f]{12}$/);
    }
  });

  it('set a balance by account id', async () => {
    const other = [...sb.state.accounts.values()].find((a) => a.apiKey === OTHER);
    const r = await call('PUT', `${sb.baseUrl}/__sandbox/accounts/${other?.id}/balance`, {
      headers: { 'x-sandbox-admin': sb.adminToken },
      json: { seconds: 42 },
    });
    expect(r.status).toBe(200);
    expect(other?.seconds).toBe(42);
  });
});

describe('dubdesk sandbox', () => {
  it('prints a fresh admin token at start, and that token opens the test controls', async () => {
    const { child } = startCli(['sandbox', '--port', '0'], process.env);
    try {
      const out = await new Promise<string>((resolve, reject) => {
        let buf = '';
        child.stdout?.on('data', (d: Buffer) => {
          buf += d.toString();
          if (/Admin token.*: \S+\n/.test(buf)) resolve(buf);
        });
        child.on('exit', () => reject(new Error(`exited: ${buf}`)));
      });
      const token = /Admin token.*: (\S+)/.exec(out)?.[1] ?? '';
      const base = /base URL (\S+)/.exec(out)?.[1] ?? '';
      expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect((await call('GET', `${base}/__sandbox/state`)).status).toBe(401);
      expect(
        (await call('GET', `${base}/__sandbox/state`, { headers: { 'x-sandbox-admin': token } })).status,
      ).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('links ignore the Host header', () => {
  it('upload URLs, output links and flag URLs are built from the sandbox base URL', async () => {
    const evil = 'evil.example:666';
    const init = await withHost(
      'POST',
      '/api/v1/init-dub',
      evil,
      { apikey: KEY, 'content-type': 'application/json' },
      JSON.stringify({ fileType: 'video/mp4', name: 'a.mp4', source_lang: 'auto', dest_lang: 'es' }),
    );
    expect(init.status).toBe(200);
    expect(InitDubV1Response.parse(JSON.parse(init.body)).uploadUrl.startsWith(`${sb.baseUrl}/`)).toBe(true);

    const legacy = await withHost(
      'POST',
      '/legacy/v1/init-dub',
      evil,
      { apikey: KEY, 'content-type': 'application/json' },
      JSON.stringify({
        fileType: 'video/mp4',
        name: 'a.mp4',
        source_lang: 'auto',
        dest_lang: 'es',
        duration: 1,
      }),
    );
    expect(legacy.status).toBe(200);
    expect((JSON.parse(legacy.body) as { uploadUrl: string }).uploadUrl.startsWith(`${sb.baseUrl}/`)).toBe(
      true,
    );

    const langs = LangList.parse(JSON.parse((await withHost('GET', '/api/langs', evil, {})).body));
    expect(langs.every((l) => l.flagUrl.startsWith(`${sb.baseUrl}/`))).toBe(true);

    const created = DubV2.parse(
      (
        await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
          headers: { apikey: KEY },
          body: await formWithFile(videoMp4(), { dest_lang: 'es' }),
        })
      ).body,
    );
    await waitFor('completion', async () => {
      const d = DubV2.parse(
        JSON.parse((await withHost('GET', `/api/v2/dubs/${created.id}`, evil, { apikey: KEY })).body),
      );
      if (d.external_status_id !== 5) return undefined;
      for (const link of Object.values(d.outputs)) {
        expect(link.url.startsWith(`${sb.baseUrl}/storage/`)).toBe(true);
        expect(link.download_url.startsWith(`${sb.baseUrl}/storage/`)).toBe(true);
      }
      return d;
    });
  });
});
