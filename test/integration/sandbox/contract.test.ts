import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../shared/api/common';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { call } from '../../helpers/http';

const KEY = 'contract-key';
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ apiKey: KEY, pipelineSeconds: 600 });
});
afterAll(() => sb.stop());

interface Endpoint {
  generation: 'v2' | 'v1' | 'legacy';
  method: string;
  path: string;
  json?: unknown;
}
const v1Init = { fileType: 'video/mp4', name: 'a.mp4', source_lang: 'auto', dest_lang: 'es' };
const legacyInit = { ...v1Init, duration: 3 };
const ENDPOINTS: Endpoint[] = [
  { generation: 'v2', method: 'GET', path: '/api/v2/me' },
  { generation: 'v2', method: 'GET', path: '/api/v2/dubs' },
  { generation: 'v2', method: 'GET', path: '/api/v2/dubs/x' },
  { generation: 'v2', method: 'POST', path: '/api/v2/dubs', json: { dest_lang: 'es' } },
  { generation: 'v1', method: 'GET', path: '/api/v1/me' },
  { generation: 'v1', method: 'GET', path: '/api/v1/dubs' },
  { generation: 'v1', method: 'POST', path: '/api/v1/init-dub', json: v1Init },
  { generation: 'v1', method: 'POST', path: '/api/v1/start-dub', json: { fileId: 'x' } },
  { generation: 'legacy', method: 'GET', path: '/legacy/v1/dubs' },
  { generation: 'legacy', method: 'POST', path: '/legacy/v1/init-dub', json: legacyInit },
  { generation: 'legacy', method: 'POST', path: '/legacy/v1/start-dub', json: { id: 'x' } },
];

describe('authentication per generation (spec: Authentication)', () => {
  it('every keyed endpoint answers 401 with { error } for a missing or wrong key', async () => {
    for (const e of ENDPOINTS) {
      for (const headers of [{}, { apikey: 'wrong' }, { ApiKey: '' }] as Record<string, string>[]) {
        const r = await call(e.method, `${sb.baseUrl}${e.path}`, { headers, json: e.json });
        expect(r.status, `${e.method} ${e.path} ${JSON.stringify(headers)}`).toBe(401);
        ErrorBody.strict().parse(r.body);
      }
    }
  });

  it('Authorization: Bearer is accepted by v2 only; the apikey / ApiKey header by every generation', async () => {
    for (const e of ENDPOINTS) {
      const bearer = await call(e.method, `${sb.baseUrl}${e.path}`, {
        headers: { authorization: `Bearer ${KEY}` },
        json: e.json,
      });
      if (e.generation === 'v2') expect(bearer.status, `${e.method} ${e.path}`).not.toBe(401);
      else expect(bearer.status, `${e.method} ${e.path}`).toBe(401);
      const header: Record<string, string> = e.generation === 'legacy' ? { ApiKey: KEY } : { apikey: KEY };
      const keyed = await call(e.method, `${sb.baseUrl}${e.path}`, { headers: header, json: e.json });
      expect(keyed.status, `${e.method} ${e.path}`).not.toBe(401);
    }
  });

  it('public and pre-signed calls need no key', async () => {
    expect((await call('GET', `${sb.baseUrl}/api/langs`)).status).toBe(200);
  });
});

describe('JSON calls (spec: Content-Type: application/json)', () => {
  it('v1 and legacy init/start answer 400 when the body is not sent as JSON', async () => {
    for (const e of ENDPOINTS.filter((x) => x.method === 'POST' && x.generation !== 'v2')) {
      const header: Record<string, string> = e.generation === 'legacy' ? { ApiKey: KEY } : { apikey: KEY };
      const r = await call('POST', `${sb.baseUrl}${e.path}`, {
        headers: { ...header, 'content-type': 'text/plain' },
        body: JSON.stringify(e.json),
      });
      expect(r.status, e.path).toBe(400);
      expect(ErrorBody.strict().parse(r.body).error).toMatch(/application\/json/);
    }
  });

  it('v2 create answers 400 for another content type and for a body that is not a JSON object', async () => {
    for (const [type, body] of [
      ['text/plain', '{"dest_lang":"es"}'],
      ['application/json', '[1]'],
      ['application/json', 'null'],
      ['application/json', '{"dest_lang":'],
    ]) {
      const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
        headers: { apikey: KEY, 'content-type': type ?? '' },
        body,
      });
      expect(r.status, `${type} ${body}`).toBe(400);
      ErrorBody.strict().parse(r.body);
    }
  });

  it('v2 create refuses a request with both a file and a source_url, and a JSON is_studio_quality that is not a boolean', async () => {
    const form = new FormData();
    form.set('dest_lang', 'es');
    form.set('source_url', 'http://example.com/a.mp4');
    form.set('file', new Blob([new Uint8Array(10)], { type: 'video/mp4' }), 'a.mp4');
    expect(
      (await call('POST', `${sb.baseUrl}/api/v2/dubs`, { headers: { apikey: KEY }, body: form })).status,
    ).toBe(400);
    const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
      headers: { apikey: KEY },
      json: { dest_lang: 'es', source_url: 'http://example.com/a.mp4', is_studio_quality: 'yes' },
    });
    expect(r.status).toBe(400);
  });
});
