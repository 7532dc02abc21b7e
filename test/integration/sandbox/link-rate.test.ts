/**
 * `--link-rate` / `linkRateMiBps`: the sandbox receives uploads no faster than a link of that rate, shared
 * by the uploads at once; `downlinkRateMiBps` sends the outputs the same way. Only lower bounds on time are
 * asserted: a slower machine can only add to them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DubV2 } from '../../../shared/api/v2';
import { InitDubV1Response } from '../../../shared/api/v1';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { runCli } from '../../helpers/cli';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { audioMp3 } from '../../helpers/media';
import { startSandboxProcess } from '../../helpers/sandbox-process';

const MIB = 1024 * 1024;
const auth = { apikey: 'sandbox-key' };
let sb: Sandbox;

beforeAll(async () => {
  // A header deadline far shorter than the uploads: a slow body must not be taken for a slowloris.
  sb = await startSandbox({ linkRateMiBps: 1, headersTimeoutMs: 2000, ffmpeg: false, pipelineSeconds: 60 });
});
afterAll(() => sb.stop());

function mp4Bytes(n: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(new ArrayBuffer(n));
  b.set(Buffer.from('\0\0\0\x18ftypisom', 'latin1'));
  b.fill(7, 16);
  return b;
}

async function putUpload(baseUrl: string, bytes: number): Promise<number> {
  const created = await call('POST', `${baseUrl}/api/v1/init-dub`, {
    headers: auth,
    json: { fileType: 'video/mp4', name: 'shaped.mp4', source_lang: 'auto', dest_lang: 'es' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const init = InitDubV1Response.parse(created.body);
  const r = await call('PUT', init.uploadUrl, {
    headers: { 'content-type': 'video/mp4' },
    body: mp4Bytes(bytes),
  });
  return r.status;
}

/** Seconds `work` took. */
async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, (performance.now() - start) / 1000];
}

describe('the shaped link', () => {
  it('receives a pre-signed PUT at the link rate, whole', async () => {
    const [status, seconds] = await timed(() => putUpload(sb.baseUrl, 4 * MIB));
    expect(status).toBe(200);
    expect(seconds).toBeGreaterThanOrEqual(3.5);
  });

  it('shares the rate between uploads at once, multipart ones included', async () => {
    const form = new FormData();
    form.set('dest_lang', 'es');
    form.set('file', new Blob([mp4Bytes(2 * MIB)], { type: 'video/mp4' }), 'shaped.mp4');
    const [[put, created], seconds] = await timed(() =>
      Promise.all([
        putUpload(sb.baseUrl, 2 * MIB),
        call('POST', `${sb.baseUrl}/api/v2/dubs`, { headers: auth, body: form }),
      ]),
    );
    expect(put).toBe(200);
    expect(created.status).toBe(201);
    expect(DubV2.parse(created.body).name).toBe('shaped.mp4');
    expect(seconds).toBeGreaterThanOrEqual(3.5);
  });

  it('is an option of `dubdesk sandbox`, explained in its help', async () => {
    const help = await runCli(['sandbox', '--help'], process.env);
    expect(help.stdout).toMatch(/--link-rate <MiB\/s>/);
    const child = await startSandboxProcess(['--link-rate', '2']);
    try {
      const [status, seconds] = await timed(() => putUpload(child.baseUrl, 8 * MIB));
      expect(status).toBe(200);
      expect(seconds).toBeGreaterThanOrEqual(3.5);
    } finally {
      await child.stop();
    }
  }, 60_000);
});

describe('the shaped link, downloads', () => {
  it('sends the outputs at the downlink rate, shared by downloads at once, whole', async () => {
    const down = await startSandbox({ downlinkRateMiBps: 0.25, ffmpeg: false, pipelineSeconds: 0.2 });
    try {
      // A real MP3 of about 1.1 MiB: its dubbed sound is a copy of it when the sandbox has no ffmpeg.
      const tone = audioMp3(140, 'a long tone.mp3');
      const form = await formWithFile(tone, { dest_lang: 'es' }, 'audio/mpeg');
      const created = await call('POST', `${down.baseUrl}/api/v2/dubs`, { headers: auth, body: form });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = DubV2.parse(created.body).id;
      const done = await waitFor('the dub to complete', async () => {
        const r = await call('GET', `${down.baseUrl}/api/v2/dubs/${id}`, { headers: auth });
        const dub = DubV2.parse(r.body);
        return dub.external_status_id === 5 ? dub : undefined;
      });
      const link = done.outputs.translated_mp3?.download_url;
      if (!link) throw new Error('no translated_mp3');
      const fetchAll = async () => (await (await fetch(link)).arrayBuffer()).byteLength;
      const [one, seconds] = await timed(fetchAll);
      expect(one).toBeGreaterThan(MIB);
      // 1.1 MiB at 0.25 MiB/s: over 4 s.
      expect(seconds).toBeGreaterThanOrEqual(3.5);
      const [both, together] = await timed(() => Promise.all([fetchAll(), fetchAll()]));
      expect(both).toEqual([one, one]);
      expect(together).toBeGreaterThanOrEqual(7.5);
    } finally {
      await down.stop();
    }
  }, 60_000);
});
