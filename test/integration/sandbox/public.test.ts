import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LangList } from '../../../shared/api/common';
import { TARGET_CODES } from '../../../shared/languages';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { call } from '../../helpers/http';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.stop());

describe('GET /api/langs', () => {
  it('lists the 92 codes with name, emoji flag and a flag image, without a key', async () => {
    const r = await call('GET', `${sb.baseUrl}/api/langs`);
    expect(r.status).toBe(200);
    const langs = LangList.parse(r.body);
    expect(langs).toHaveLength(92);
    expect(new Set(langs.map((l) => l.code))).toEqual(new Set(TARGET_CODES));
    expect(langs.some((l) => l.code === 'auto')).toBe(false);
    const es = langs.find((l) => l.code === 'es');
    expect(es).toMatchObject({ name: 'Spanish', emoji: '\u{1F1EA}\u{1F1F8}' });
    const flag = await fetch(es?.flagUrl ?? '');
    expect(flag.status).toBe(200);
    expect(flag.headers.get('content-type')).toBe('image/svg+xml');
    await flag.text();
  });

  it('answers unknown paths with 404 and wrong methods with 405, as { error }', async () => {
    const missing = await call('GET', `${sb.baseUrl}/api/v3/dubs`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: expect.any(String) });
    expect((await call('DELETE', `${sb.baseUrl}/api/v2/dubs`)).status).toBe(405);
  });
});
