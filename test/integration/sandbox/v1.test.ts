import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../shared/api/common';
import { DubListV1, InitDubV1Response, ProfileV1, StartDubV1Response } from '../../../shared/api/v1';
import { DubV2 } from '../../../shared/api/v2';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { call, waitFor } from '../../helpers/http';

const KEY = 'v1-main';
const OTHER = 'v1-other';
const BROKE = 'v1-broke';
let sb: Sandbox;
const auth = { apikey: KEY };

async function init(body: Record<string, unknown>, headers: Record<string, string> = auth) {
  return call('POST', `${sb.baseUrl}/api/v1/init-dub`, { headers, json: body });
}
async function initOk(body: Record<string, unknown> = {}, headers: Record<string, string> = auth) {
  const r = await init(
    { fileType: 'video/mp4', name: 'clip.mp4', source_lang: 'auto', dest_lang: 'es', ...body },
    headers,
  );
  expect(r.status).toBe(200);
  return InitDubV1Response.strict().parse(r.body);
}
async function put(url: string, path = videoMp4(), type = 'video/mp4') {
  return call('PUT', url, { headers: { 'content-type': type }, body: await readFile(path) });
}
async function start(fileId: string, headers: Record<string, string> = auth) {
  return call('POST', `${sb.baseUrl}/api/v1/start-dub`, { headers, json: { fileId } });
}

beforeAll(async () => {
  sb = await startSandbox({
    apiKey: KEY,
    balance: 1000,
    users: [
      { apiKey: OTHER, seconds: 100 },
      { apiKey: BROKE, seconds: 0 },
    ],
    pipelineSeconds: 0.4,
    uploadTtlSeconds: 60,
    maxUploadBytes: 500_000,
    maxStorageBytes: 500_000,
  });
});
afterAll(() => sb.stop());

describe('v1', () => {
  it('GET /me answers the camelCase profile; Bearer is not the way to pass the key', async () => {
    const r = await call('GET', `${sb.baseUrl}/api/v1/me`, { headers: auth });
    expect(r.status).toBe(200);
    expect(ProfileV1.strict().parse(r.body)).toMatchObject({
      seconds: 1000,
      firstName: 'Sandbox',
      subscriptionStatus: null,
    });
    expect(
      (await call('GET', `${sb.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${KEY}` } })).status,
    ).toBe(401);
    expect((await call('GET', `${sb.baseUrl}/api/v1/dubs`)).status).toBe(401);
  });

  it('init-dub returns a file record and a pre-signed upload URL valid 3600 s by default', async () => {
    const res = await initOk({ duration: 3, isStudioQuality: true });
    expect(res.file).toEqual({
      id: res.file.id,
      name: 'clip.mp4',
      source: 'api',
      externalStatusId: 1,
      internalStatusId: 1,
    });
    const url = new URL(res.uploadUrl);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    const defaults = await startSandbox({ apiKey: KEY });
    try {
      const r = InitDubV1Response.parse(
        (
          await call('POST', `${defaults.baseUrl}/api/v1/init-dub`, {
            headers: auth,
            json: { fileType: 'audio/mpeg', name: 'a.mp3', source_lang: 'en', dest_lang: 'de' },
          })
        ).body,
      );
      expect(new URL(r.uploadUrl).searchParams.get('X-Amz-Expires')).toBe('3600');
    } finally {
      await defaults.stop();
    }
  });

  it('init-dub answers 400 for missing fields, auto or unknown targets and non-media types; 401 without key', async () => {
    const base = { fileType: 'video/mp4', name: 'clip.mp4', source_lang: 'auto', dest_lang: 'es' };
    for (const body of [
      { ...base, dest_lang: undefined },
      { ...base, name: undefined },
      { ...base, fileType: undefined },
      { ...base, source_lang: undefined },
      { ...base, dest_lang: 'auto' },
      { ...base, dest_lang: 'xx' },
      { ...base, fileType: 'text/plain' },
      { ...base, duration: 'long' },
    ]) {
      const r = await init(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      ErrorBody.strict().parse(r.body);
    }
    expect((await init(base, { apikey: 'wrong' })).status).toBe(401);
  });

  it('the full flow: PUT without a key, start-dub, list until completed, charge once at measured duration', async () => {
    const res = await initOk({ isStudioQuality: true, duration: 99 });
    expect((await start(res.file.id)).status).toBe(412);
    const up = await put(res.uploadUrl);
    expect(up.status).toBe(200);
    const started = await start(res.file.id);
    expect(started.status).toBe(200);
    expect(StartDubV1Response.strict().parse(started.body)).toEqual({ success: true, fileId: res.file.id });
    expect((await start(res.file.id)).status).toBe(409);
    const done = await waitFor('v1 dub to complete', async () => {
      const list = DubListV1.parse((await call('GET', `${sb.baseUrl}/api/v1/dubs`, { headers: auth })).body);
      const d = list.find((x) => x.id === res.file.id);
      return d && d.externalStatusId === 5 ? d : undefined;
    });
    const list = (await call('GET', `${sb.baseUrl}/api/v1/dubs`, { headers: auth })).body as unknown[];
    for (const item of list) DubListV1.element.strict().parse(item);
    expect(done).toMatchObject({
      name: 'clip.mp4',
      destLang: 'es',
      sourceLang: 'auto',
      duration: 99,
      isStudioQuality: true,
      progressPercentage: 100,
    });
    expect(done.measuredDuration).toBeCloseTo(3, 0);
    expect(sb.state.ledger.filter((c) => c.dubId === res.file.id).map((c) => c.seconds)).toEqual([
      2 * Math.ceil(done.measuredDuration ?? 0),
    ]);
    expect((await start(res.file.id)).status).toBe(409);
    // Outputs of a v1 dub are read through v2 details, the only call that returns links.
    const v2 = DubV2.parse(
      (await call('GET', `${sb.baseUrl}/api/v2/dubs/${res.file.id}`, { headers: auth })).body,
    );
    expect(v2.outputs.translated_mp4).toBeDefined();
  });

  it('start-dub answers 404 unknown, 403 not yours, 402 no balance, 400 without fileId, 502 when dispatch fails', async () => {
    expect((await start('no-such-file')).status).toBe(404);
    const theirs = await initOk({}, { apikey: OTHER });
    await put(theirs.uploadUrl);
    const forbidden = await start(theirs.file.id);
    expect(forbidden.status).toBe(403);
    expect(ErrorBody.parse(forbidden.body).error).toMatch(/another user/);
    const broke = await initOk({}, { apikey: BROKE });
    await put(broke.uploadUrl);
    expect((await start(broke.file.id, { apikey: BROKE })).status).toBe(402);
    expect((await call('POST', `${sb.baseUrl}/api/v1/start-dub`, { headers: auth, json: {} })).status).toBe(
      400,
    );
    const mine = await initOk();
    await put(mine.uploadUrl, audioMp3(), 'video/mp4');
    sb.setFaults({ rate502: 1 });
    const failed = await start(mine.file.id).finally(() => sb.setFaults({ rate502: 0 }));
    expect(failed.status).toBe(502);
    ErrorBody.parse(failed.body);
    // Dispatch failed, nothing started: the same call succeeds later.
    expect((await start(mine.file.id)).status).toBe(200);
  });

  it('the upload URL needs no key, refuses tampering and expiry with 403, and a file over the limit with 413', async () => {
    const res = await initOk();
    const tampered = res.uploadUrl.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=999999');
    expect((await put(tampered)).status).toBe(403);
    const big = await call('PUT', res.uploadUrl, {
      headers: { 'content-type': 'video/mp4' },
      body: new Uint8Array(600_000),
    });
    expect(big.status).toBe(413);
    sb.advanceClock(61);
    try {
      const expired = await put(res.uploadUrl);
      expect(expired.status).toBe(403);
      expect(ErrorBody.parse(expired.body).error).toMatch(/expired/);
    } finally {
      sb.advanceClock(-61);
    }
  });
});
