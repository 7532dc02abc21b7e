import { connect } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DubV2 } from '../../../shared/api/v2';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { call, formWithFile, waitFor } from '../../helpers/http';

const KEY = 'k-hardening';
const auth = { apikey: KEY };
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({
    apiKey: KEY,
    pipelineSeconds: 0.2,
    linkTtlSeconds: 3,
    headersTimeoutMs: 2000,
    ffmpeg: false,
  });
});
afterAll(() => sb.stop());

function translatedUrl(dub: DubV2): string {
  const url = dub.outputs.translated?.url;
  if (!url) throw new Error(`dub ${dub.id} has no translated output`);
  return url;
}

async function finishedDub(): Promise<DubV2> {
  const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
    headers: auth,
    body: await formWithFile(videoMp4(1), { dest_lang: 'es' }),
  });
  expect(r.status).toBe(201);
  const { id } = DubV2.parse(r.body);
  return waitFor(`dub ${id} to finish`, async () => {
    const dub = DubV2.parse((await call('GET', `${sb.baseUrl}/api/v2/dubs/${id}`, { headers: auth })).body);
    return dub.external_status_id === 5 ? dub : undefined;
  });
}

/** A socket that connects, writes `text` and never finishes its request; resolves when the server hangs up. */
function halfOpen(text: string): Promise<'closed'> {
  const url = new URL(sb.baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('connect', () => socket.write(text));
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.on('close', () => resolve('closed')));
}

describe('the sandbox under the attack of issue 21 item 13', () => {
  it('a fresh GET /dubs/{id} hands out live links with --link-ttl 3, however old the cached answer is', async () => {
    const dub = await finishedDub();
    expect((await fetch(translatedUrl(dub))).status).toBe(200);
    sb.advanceClock(4);
    const again = DubV2.parse(
      (await call('GET', `${sb.baseUrl}/api/v2/dubs/${dub.id}`, { headers: auth })).body,
    );
    const link = translatedUrl(again);
    expect((await fetch(link)).status, link).toBe(200);
  });

  it('hangs up on connections that never finish their headers (slowloris), silent or trickling', async () => {
    const outcomes = await Promise.all([
      halfOpen(''),
      halfOpen('GET /api/langs HTTP/1.1\r\nHost: x\r\n'),
      halfOpen('POST /api/v2/dubs HTTP/1.1\r\nHost: x\r\nX-Slow: a'),
    ]);
    expect(outcomes).toEqual(['closed', 'closed', 'closed']);
  }, 20_000);

  it('keeps a UTF-8 multipart file name as sent', async () => {
    const form = new FormData();
    form.set('dest_lang', 'es');
    form.set('file', new Blob([await readFile(videoMp4(1))], { type: 'video/mp4' }), '日本語 ünï.mp4');
    const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, { headers: auth, body: form });
    expect(r.status).toBe(201);
    expect(DubV2.parse(r.body).name).toBe('日本語 ünï.mp4');
  });

  it('refuses a link whose signature has anything appended, or is written another way', async () => {
    const dub = await finishedDub();
    const good = new URL(translatedUrl(dub));
    const signature = good.searchParams.get('X-Amz-Signature') ?? '';
    expect((await fetch(good)).status).toBe(200);
    for (const forged of [`${signature}zz`, `${signature}0`, `${signature}00`, signature.toUpperCase()]) {
      const url = new URL(good);
      url.searchParams.set('X-Amz-Signature', forged);
      expect((await fetch(url)).status, forged).toBe(403);
    }
  });
});
