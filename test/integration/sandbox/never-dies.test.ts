import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InitDubV1Response } from '../../../shared/api/v1';
import { DubV2, ProfileV2 } from '../../../shared/api/v2';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { videoMp4 } from '../../helpers/media';
import { rawRequest, startSandboxProcess, type SandboxProcess } from '../../helpers/sandbox-process';

const KEY = 'sandbox-key';
const LIMIT = 100_000;
let sp: SandboxProcess;
beforeAll(async () => {
  sp = await startSandboxProcess([
    '--max-upload-bytes',
    String(LIMIT),
    '--max-storage-bytes',
    String(LIMIT),
    '--pipeline-seconds',
    '0.3',
  ]);
});
afterAll(() => sp.stop());

/** After every hostile request: the process is up, answers /me correctly, and logged no crash. */
async function stillServing(what: string): Promise<void> {
  // A request after the hostile one, answered: whatever that one broke has happened by then.
  const me = await call('GET', `${sp.baseUrl}/api/v2/me`, { headers: { apikey: KEY } }).catch(
    (e: unknown) => ({ status: 0, body: String(e) }),
  );
  expect(sp.alive(), `${what}: the process died: ${sp.stderr()}`).toBe(true);
  expect(me.status, what).toBe(200);
  expect(ProfileV2.parse(me.body).seconds).toBeGreaterThan(0);
  expect(sp.stderr(), what).not.toMatch(/Error|\n\s+at /);
}

function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${lines.join('')}\r\n`;
}

const admin = () => ({ 'x-sandbox-admin': sp.adminToken });

describe('a request never kills the sandbox', () => {
  it('a 2 MB JSON body, with or without a key, gets 413 or 401', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
    for (const key of [{ apikey: KEY }, {}] as Record<string, string>[]) {
      const r = await rawRequest(sp.port, [
        head('POST', '/api/v1/init-dub', {
          ...key,
          'content-type': 'application/json',
          'content-length': big.length,
        }),
        big,
      ]);
      expect([401, 413, 0]).toContain(r.status);
      await stillServing(`2 MB JSON ${JSON.stringify(key)}`);
    }
  });

  it('a chunked v1 PUT over the size limit gets 413', async () => {
    const init = InitDubV1Response.parse(
      (
        await call('POST', `${sp.baseUrl}/api/v1/init-dub`, {
          headers: { apikey: KEY },
          json: { fileType: 'video/mp4', name: 'a.mp4', source_lang: 'auto', dest_lang: 'es' },
        })
      ).body,
    );
    const url = new URL(init.uploadUrl);
    const chunk = Buffer.alloc(64 * 1024, 0x62);
    const chunks: (string | Buffer)[] = [
      head('PUT', `${url.pathname}${url.search}`, {
        'content-type': 'video/mp4',
        'transfer-encoding': 'chunked',
      }),
    ];
    for (let i = 0; i < 4; i++) chunks.push(`${chunk.length.toString(16)}\r\n`, chunk, '\r\n');
    chunks.push('0\r\n\r\n');
    const r = await rawRequest(sp.port, chunks);
    expect([413, 0]).toContain(r.status);
    await stillServing('chunked PUT over the limit');
  });

  it('a multipart body cut off inside the file part', async () => {
    const body =
      '--XX\r\nContent-Disposition: form-data; name="dest_lang"\r\n\r\nes\r\n' +
      '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\nabcdefgh';
    for (const end of ['half-close', 'destroy'] as const) {
      await rawRequest(
        sp.port,
        [
          head('POST', '/api/v2/dubs', {
            apikey: KEY,
            'content-type': 'multipart/form-data; boundary=XX',
            'content-length': body.length + 1000,
          }),
          body,
        ],
        { end },
      );
      await stillServing(`multipart cut (${end})`);
    }
    // A body that ends (length reached) before the closing boundary: a 400, not a crash.
    const r = await rawRequest(sp.port, [
      head('POST', '/api/v2/dubs', {
        apikey: KEY,
        'content-type': 'multipart/form-data; boundary=XX',
        'content-length': body.length,
      }),
      body,
    ]);
    expect(r.status).toBe(400);
    await stillServing('multipart without its closing boundary');
  });

  it('connections dropped during the latency sleep and responses lost on sockets already gone', async () => {
    expect(
      (await call('PUT', `${sp.baseUrl}/__sandbox/faults`, { headers: admin(), json: { latencyMs: 300 } }))
        .status,
    ).toBe(200);
    await rawRequest(sp.port, [head('GET', '/api/v2/me', { apikey: KEY })], { waitMs: 50 });
    await rawRequest(sp.port, [head('GET', '/api/v2/dubs', { apikey: KEY })], { end: 'destroy' });
    const form = await formWithFile(videoMp4(), { dest_lang: 'es' });
    const aborted = fetch(`${sp.baseUrl}/api/v2/dubs`, {
      method: 'POST',
      headers: { apikey: KEY },
      body: form,
      signal: AbortSignal.timeout(100),
    });
    await expect(aborted).rejects.toThrow();
    await call('PUT', `${sp.baseUrl}/__sandbox/faults`, {
      headers: admin(),
      json: { latencyMs: 0, rateLostResponse: 1 },
    });
    await rawRequest(
      sp.port,
      [
        head('POST', '/api/v1/init-dub', {
          apikey: KEY,
          'content-type': 'application/json',
          'content-length': 80,
        }),
        JSON.stringify({ fileType: 'video/mp4', name: 'b.mp4', source_lang: 'auto', dest_lang: 'es' }).padEnd(
          80,
        ),
      ],
      { end: 'destroy' },
    );
    await call('PUT', `${sp.baseUrl}/__sandbox/faults`, { headers: admin(), json: { rateLostResponse: 0 } });
    await stillServing('dropped during sleeps and lost responses');
  });

  it('HEAD and ranged reads of outputs, and HEAD on API routes', async () => {
    const created = DubV2.parse(
      (
        await call('POST', `${sp.baseUrl}/api/v2/dubs`, {
          headers: { apikey: KEY },
          body: await formWithFile(videoMp4(), { dest_lang: 'es' }),
        })
      ).body,
    );
    const done = await waitFor('completion', async () => {
      const d = DubV2.parse(
        (await call('GET', `${sp.baseUrl}/api/v2/dubs/${created.id}`, { headers: { apikey: KEY } })).body,
      );
      return d.external_status_id === 5 ? d : undefined;
    });
    const link = done.outputs.translated_mp4?.download_url ?? '';
    const size = (await readFile(videoMp4())).length;
    const h = await fetch(link, { method: 'HEAD' });
    expect(h.status).toBe(200);
    expect(Number(h.headers.get('content-length'))).toBeGreaterThan(0);
    for (const range of [
      'bytes=0-0',
      `bytes=${size * 10}-`,
      'bytes=-1',
      'bytes=5-2',
      'bytes=x',
      'bytes=0-1,4-5',
    ]) {
      const r = await fetch(link, { headers: { range } });
      expect([200, 206, 416], range).toContain(r.status);
      await r.arrayBuffer();
    }
    for (const path of ['/api/v2/me', '/api/v2/dubs', '/api/langs', '/nope']) {
      const r = await fetch(`${sp.baseUrl}${path}`, { method: 'HEAD', headers: { apikey: KEY } });
      expect(r.status, path).toBeLessThan(500);
    }
    // Dropped in the middle of a download.
    const url = new URL(link);
    await rawRequest(sp.port, [head('GET', `${url.pathname}${url.search}`, {})], { waitMs: 1 });
    await stillServing('HEAD and ranges');
  });
});
