import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, OUTPUT_TYPES } from '../../../shared/api/common';
import { DubListV2, DubV2, ProfileV2 } from '../../../shared/api/v2';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, textFile, videoMp4 } from '../../helpers/media';
import { call, formWithFile, waitFor } from '../../helpers/http';

const KEY = 'k-main';
const OTHER = 'k-other';
const BROKE = 'k-broke';
let sb: Sandbox;
const auth = { apikey: KEY };

async function createFromFile(
  fields: Record<string, string>,
  path = videoMp4(),
  headers: Record<string, string> = auth,
) {
  return call('POST', `${sb.baseUrl}/api/v2/dubs`, { headers, body: await formWithFile(path, fields) });
}

async function completed(id: string): Promise<DubV2> {
  return waitFor(`dub ${id} to finish`, async () => {
    const r = await call('GET', `${sb.baseUrl}/api/v2/dubs/${id}`, { headers: auth });
    const dub = DubV2.parse(r.body);
    return dub.external_status_id >= 4 ? dub : undefined;
  });
}

beforeAll(async () => {
  sb = await startSandbox({
    apiKey: KEY,
    balance: 1000,
    users: [
      { apiKey: OTHER, seconds: 500 },
      { apiKey: BROKE, seconds: 0 },
    ],
    pipelineSeconds: 0.4,
    maxUploadBytes: 200_000,
    allowPrivateSourceUrls: false,
  });
});
afterAll(() => sb.stop());

describe('v2 /me', () => {
  it('answers the profile for apikey and for Authorization: Bearer', async () => {
    const a = await call('GET', `${sb.baseUrl}/api/v2/me`, { headers: auth });
    const b = await call('GET', `${sb.baseUrl}/api/v2/me`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(a.status).toBe(200);
    expect(ProfileV2.strict().parse(a.body).seconds).toBe(1000);
    expect(b.body).toEqual(a.body);
  });
  it('answers 401 with an error body for a missing or wrong key', async () => {
    const attempts: Record<string, string>[] = [{}, { apikey: 'nope' }, { authorization: 'Bearer nope' }];
    for (const headers of attempts) {
      const r = await call('GET', `${sb.baseUrl}/api/v2/me`, { headers });
      expect(r.status).toBe(401);
      expect(ErrorBody.strict().parse(r.body).error).toMatch(/API key/);
    }
  });
});

describe('v2 POST /dubs', () => {
  it('creates from a multipart file: 201, In Queue, progress 0, no outputs, no measured duration', async () => {
    const r = await createFromFile({ dest_lang: 'es', duration: '3' });
    expect(r.status).toBe(201);
    const dub = DubV2.strict().parse(r.body);
    expect(dub).toMatchObject({
      dubbing_id: dub.id,
      name: 'video-3s.mp4',
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
      outputs: {},
    });
    expect(new Date(dub.created_at).toISOString()).toBe(dub.created_at);
  });

  it('creates from a source_url fetched server-side, named after the last path segment', async () => {
    const media = await readFile(audioMp3());
    const origin: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(media);
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const port = (origin.address() as { port: number }).port;
    const permissive = await startSandbox({
      apiKey: KEY,
      pipelineSeconds: 0.2,
      allowPrivateSourceUrls: true,
    });
    try {
      const r = await call('POST', `${permissive.baseUrl}/api/v2/dubs`, {
        headers: auth,
        json: { source_url: `http://127.0.0.1:${port}/media/talk.mp3`, dest_lang: 'fr', source_lang: 'en' },
      });
      expect(r.status).toBe(201);
      expect(DubV2.parse(r.body)).toMatchObject({
        name: 'talk.mp3',
        type: 'audio/mpeg',
        source_lang: 'en',
        dest_lang: 'fr',
      });
      // Without the option, the same loopback URL is refused.
      const blocked = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
        headers: auth,
        json: { source_url: `http://127.0.0.1:${port}/media/talk.mp3`, dest_lang: 'fr' },
      });
      expect(blocked.status).toBe(400);
      expect(ErrorBody.parse(blocked.body).error).toMatch(/blocked/);
      for (const url of ['http://10.1.2.3/x.mp4', 'http://[::1]/x.mp4', 'http://169.254.169.254/latest']) {
        const r2 = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
          headers: auth,
          json: { source_url: url, dest_lang: 'fr' },
        });
        expect(r2.status, url).toBe(400);
      }
    } finally {
      await permissive.stop();
      origin.close();
    }
  });

  it('answers 400 for missing dest_lang, auto or unknown targets, no source, bad schemes, unreachable URLs', async () => {
    const cases: [string, Promise<{ status: number; body: unknown }>][] = [
      ['no dest_lang', createFromFile({})],
      ['auto target', createFromFile({ dest_lang: 'auto' })],
      ['unknown target', createFromFile({ dest_lang: 'xx' })],
      ['unknown source', createFromFile({ dest_lang: 'es', source_lang: 'qq' })],
      [
        'neither file nor url',
        call('POST', `${sb.baseUrl}/api/v2/dubs`, { headers: auth, json: { dest_lang: 'es' } }),
      ],
      [
        'ftp url',
        call('POST', `${sb.baseUrl}/api/v2/dubs`, {
          headers: auth,
          json: { dest_lang: 'es', source_url: 'ftp://example.com/a.mp4' },
        }),
      ],
      [
        'not a url',
        call('POST', `${sb.baseUrl}/api/v2/dubs`, {
          headers: auth,
          json: { dest_lang: 'es', source_url: 'not a url' },
        }),
      ],
      [
        'unresolvable host',
        call('POST', `${sb.baseUrl}/api/v2/dubs`, {
          headers: auth,
          json: { dest_lang: 'es', source_url: 'http://no-such-host.invalid/a.mp4' },
        }),
      ],
      [
        'not media',
        call('POST', `${sb.baseUrl}/api/v2/dubs`, {
          headers: auth,
          body: await formWithFile(textFile('plain.txt'), { dest_lang: 'es' }, 'text/plain'),
        }),
      ],
    ];
    for (const [what, pending] of cases) {
      const r = await pending;
      expect(r.status, what).toBe(400);
      expect(typeof ErrorBody.strict().parse(r.body).error, what).toBe('string');
    }
  });

  it('answers 401 for a bad key and 402 when the balance is zero', async () => {
    expect((await createFromFile({ dest_lang: 'es' }, videoMp4(), { apikey: 'bad' })).status).toBe(401);
    const r = await createFromFile({ dest_lang: 'es' }, videoMp4(), { apikey: BROKE });
    expect(r.status).toBe(402);
    expect(ErrorBody.parse(r.body).error).toMatch(/credit/i);
  });

  it('answers 413 as soon as an upload passes the size limit', async () => {
    const big = new Uint8Array(300_000);
    const form = new FormData();
    form.set('dest_lang', 'es');
    form.set('file', new Blob([big], { type: 'video/mp4' }), 'big.mp4');
    const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, { headers: auth, body: form });
    expect(r.status).toBe(413);
    expect(ErrorBody.parse(r.body).error).toMatch(/limit/);
  });

  it('answers 502 carrying the id of a dub that was never dispatched', async () => {
    sb.setFaults({ rate502: 1 });
    const r = await createFromFile({ dest_lang: 'de' }).finally(() => sb.setFaults({ rate502: 0 }));
    expect(r.status).toBe(502);
    const body = ErrorBody.strict().parse(r.body);
    expect(body.id).toBeTruthy();
    const dub = DubV2.parse(
      (await call('GET', `${sb.baseUrl}/api/v2/dubs/${body.id}`, { headers: auth })).body,
    );
    expect(dub.external_status_id).toBe(4);
    expect(sb.state.ledger.some((c) => c.dubId === body.id)).toBe(false);
  });
});

describe('v2 completion, billing and links', () => {
  it('fills outputs and measured_duration only at status 5, charges once (2x studio), links expire', async () => {
    const plain = DubV2.parse((await createFromFile({ dest_lang: 'it' })).body);
    const studio = DubV2.parse((await createFromFile({ dest_lang: 'it', is_studio_quality: 'true' })).body);
    const mid = DubV2.parse(
      (await call('GET', `${sb.baseUrl}/api/v2/dubs/${plain.id}`, { headers: auth })).body,
    );
    if (mid.external_status_id < 5) {
      expect(mid.outputs).toEqual({});
      expect(mid.measured_duration).toBeNull();
    }
    const a = await completed(plain.id);
    const b = await completed(studio.id);
    expect(a.external_status_id).toBe(5);
    expect(a.progress_percentage).toBe(100);
    expect(a.measured_duration).toBeCloseTo(3, 0);
    expect(Object.keys(a.outputs).sort()).toEqual(
      [...OUTPUT_TYPES].sort() /* a video dub offers every output type */,
    );
    const charged = (id: string) => sb.state.ledger.filter((c) => c.dubId === id).map((c) => c.seconds);
    expect(charged(plain.id)).toEqual([Math.ceil(a.measured_duration ?? 0)]);
    expect(charged(studio.id)).toEqual([2 * Math.ceil(b.measured_duration ?? 0)]);
    // Reading again does not charge again.
    await completed(plain.id);
    expect(charged(plain.id)).toHaveLength(1);
    const ledgerTotal = sb.state.ledger
      .filter((c) => c.userId === sb.account.id)
      .reduce((n, c) => n + c.seconds, 0);
    expect(sb.account.seconds).toBe(1000 - ledgerTotal);

    const link = a.outputs.translated_subtitle;
    if (!link) throw new Error('no subtitle link');
    const vtt = await fetch(link.download_url);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await vtt.text()).toMatch(/^WEBVTT\n\n1\n00:00:00\.000 --> 00:00:0/);
    const inline = await fetch(link.url);
    expect(inline.headers.get('content-disposition')).toMatch(/^inline/);
    await inline.arrayBuffer();

    const mp4 = a.outputs.translated_mp4;
    if (!mp4) throw new Error('no mp4 link');
    const part = await fetch(mp4.download_url, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(10);

    sb.advanceClock(3601);
    try {
      const expired = await call('GET', mp4.download_url);
      expect(expired.status).toBe(403);
      expect(ErrorBody.parse(expired.body).error).toMatch(/expired/);
      const fresh = await completed(plain.id);
      expect(fresh.outputs.translated_mp4?.download_url).not.toBe(mp4.download_url);
      expect((await fetch(fresh.outputs.translated_mp4?.download_url ?? '')).status).toBe(200);
    } finally {
      sb.advanceClock(-3601);
    }
    const tampered = await call('GET', mp4.download_url.replace('translated_mp4', 'original_mp4'));
    expect(tampered.status).toBe(403);
  });

  it('ends unreadable media Failed with a message and charges nothing', async () => {
    const r = await createFromFile({ dest_lang: 'es' }, textFile('fake.mp4'));
    expect(r.status).toBe(201);
    const dub = await completed(DubV2.parse(r.body).id);
    expect(dub.external_status_id).toBe(4);
    expect(dub.external_error_message).toMatch(/Could not read the media/);
    expect(dub.outputs).toEqual({});
    expect(sb.state.ledger.some((c) => c.dubId === dub.id)).toBe(false);
  });
});

describe('v2 GET /dubs and /dubs/{id}', () => {
  it('pages newest first: 1-based, default 20, at most 100 (larger sizes are clamped)', async () => {
    const user = 'k-pager';
    const pager = await startSandbox({ apiKey: user, pipelineSeconds: 60 });
    try {
      const form = async (i: number) =>
        formWithFile(audioMp3(), { dest_lang: 'es', name: `n${i}` }, 'audio/mpeg');
      for (let i = 0; i < 105; i++) {
        expect(
          (
            await call('POST', `${pager.baseUrl}/api/v2/dubs`, {
              headers: { apikey: user },
              body: await form(i),
            })
          ).status,
        ).toBe(201);
      }
      const list = async (q: string) =>
        DubListV2.strict().parse(
          (await call('GET', `${pager.baseUrl}/api/v2/dubs${q}`, { headers: { apikey: user } })).body,
        );
      const first = await list('');
      expect(first.pagination).toEqual({ page: 1, page_size: 20, total: 105, total_pages: 6 });
      expect(first.dubs.map((d) => d.name).slice(0, 3)).toEqual(['n104', 'n103', 'n102']);
      const big = await list('?page_size=100&page=2');
      expect(big.pagination).toEqual({ page: 2, page_size: 100, total: 105, total_pages: 2 });
      expect(big.dubs.map((d) => d.name)).toEqual(['n4', 'n3', 'n2', 'n1', 'n0']);
      const clamped = await list('?page_size=500');
      expect(clamped.pagination.page_size).toBe(100);
      expect(clamped.dubs).toHaveLength(100);
      expect((await list('?page=9')).dubs).toEqual([]);
      for (const q of ['?page=0', '?page=x', '?page_size=0', '?page_size=2.5']) {
        expect(
          (await call('GET', `${pager.baseUrl}/api/v2/dubs${q}`, { headers: { apikey: user } })).status,
          q,
        ).toBe(400);
      }
    } finally {
      await pager.stop();
    }
  });

  it("answers 404 for an unknown dub and for another user's dub", async () => {
    const mine = DubV2.parse((await createFromFile({ dest_lang: 'pl' })).body);
    expect(
      (await call('GET', `${sb.baseUrl}/api/v2/dubs/${mine.id}`, { headers: { apikey: OTHER } })).status,
    ).toBe(404);
    const r = await call('GET', `${sb.baseUrl}/api/v2/dubs/does-not-exist`, { headers: auth });
    expect(r.status).toBe(404);
    expect(ErrorBody.parse(r.body).error).toBeTruthy();
    const others = DubListV2.parse(
      (await call('GET', `${sb.baseUrl}/api/v2/dubs`, { headers: { apikey: OTHER } })).body,
    );
    expect(others.dubs.some((d) => d.id === mine.id)).toBe(false);
  });
});
