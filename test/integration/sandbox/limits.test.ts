import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InitDubV1Response } from '../../../shared/api/v1';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { call } from '../../helpers/http';

const LIMIT = 100_000;
const auth = { apikey: 'sandbox-key' };
let sb: Sandbox;
/** The spec's limit (v2) alone, as the service states it: v1's object storage has none it states. */
let asSpecified: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ maxUploadBytes: LIMIT, maxStorageBytes: LIMIT, pipelineSeconds: 600 });
  asSpecified = await startSandbox({ maxUploadBytes: LIMIT, pipelineSeconds: 600 });
});
afterAll(async () => {
  await sb.stop();
  await asSpecified.stop();
});

async function v1Upload(on: Sandbox, body: Uint8Array<ArrayBuffer>): Promise<number> {
  const init = InitDubV1Response.parse(
    (
      await call('POST', `${on.baseUrl}/api/v1/init-dub`, {
        headers: auth,
        json: { fileType: 'video/mp4', name: 'edge.mp4', source_lang: 'auto', dest_lang: 'es' },
      })
    ).body,
  );
  return (await call('PUT', init.uploadUrl, { headers: { 'content-type': 'video/mp4' }, body })).status;
}

/** An MP4-looking body: `ftyp` at offset 4, so a type sniffer would call it video; zeros after. */
function mp4Bytes(n: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(new ArrayBuffer(n));
  b.set(Buffer.from('\0\0\0\x18ftypisom', 'latin1'));
  return b;
}

describe('the upload size limit is "at most"', () => {
  it('v2 multipart: exactly the limit is accepted, one byte more is 413', async () => {
    for (const [size, status] of [
      [LIMIT, 201],
      [LIMIT + 1, 413],
    ] as const) {
      const form = new FormData();
      form.set('dest_lang', 'es');
      form.set('file', new Blob([mp4Bytes(size)], { type: 'video/mp4' }), 'edge.mp4');
      const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, { headers: auth, body: form });
      expect(r.status, `${size} bytes`).toBe(status);
    }
  });

  it('v1 pre-signed PUT: exactly the limit is accepted, one byte more is 413 (with and without a length)', async () => {
    for (const [size, status] of [
      [LIMIT, 200],
      [LIMIT + 1, 413],
    ] as const) {
      const init = InitDubV1Response.parse(
        (
          await call('POST', `${sb.baseUrl}/api/v1/init-dub`, {
            headers: auth,
            json: { fileType: 'video/mp4', name: 'edge.mp4', source_lang: 'auto', dest_lang: 'es' },
          })
        ).body,
      );
      const r = await call('PUT', init.uploadUrl, {
        headers: { 'content-type': 'video/mp4' },
        body: mp4Bytes(size),
      });
      expect(r.status, `${size} bytes`).toBe(status);
      const bytes = mp4Bytes(size);
      const chunked = await fetch(init.uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': 'video/mp4' },
        body: new ReadableStream({
          start(c) {
            c.enqueue(bytes);
            c.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      await chunked.arrayBuffer();
      expect(chunked.status, `${size} bytes, chunked`).toBe(status);
    }
  });

  it('the spec limits v2 alone: by default, v1 storage takes a file over the v2 limit', async () => {
    expect(await v1Upload(asSpecified, mp4Bytes(LIMIT * 3))).toBe(200);
    const form = new FormData();
    form.set('dest_lang', 'es');
    form.set('file', new Blob([mp4Bytes(LIMIT * 3)], { type: 'video/mp4' }), 'big.mp4');
    expect(
      (await call('POST', `${asSpecified.baseUrl}/api/v2/dubs`, { headers: auth, body: form })).status,
    ).toBe(413);
  });
});
