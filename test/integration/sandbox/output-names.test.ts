import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DubV2 } from '../../../shared/api/v2';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { videoMp4 } from '../../helpers/media';

const auth = { apikey: 'names-key' };
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ apiKey: 'names-key', pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

async function completedDub(name: string): Promise<DubV2> {
  const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
    headers: auth,
    body: await formWithFile(videoMp4(1), { dest_lang: 'es', name }),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = DubV2.parse(r.body).id;
  return waitFor(`dub ${name.slice(0, 20)} to complete`, async () => {
    const d = DubV2.parse((await call('GET', `${sb.baseUrl}/api/v2/dubs/${id}`, { headers: auth })).body);
    return d.external_status_id === 5 ? d : undefined;
  });
}

/** The two names a client can take from a header: the ASCII fallback and the RFC 5987 extended value. */
function parseDisposition(header: string): { type: string; fallback: string; extended: string } {
  const type = header.split(';')[0]?.trim() ?? '';
  const fallback = /;\s*filename="((?:[^"\\]|\\.)*)"/.exec(header)?.[1]?.replace(/\\(.)/g, '$1') ?? '';
  const ext = /;\s*filename\*=UTF-8''([^;\s]*)/i.exec(header)?.[1] ?? '';
  return { type, fallback, extended: decodeURIComponent(ext) };
}

const HOSTILE = [
  'café test.mp4',
  'clip 🎬 final.mp4',
  'line\r\nbreak.mp4',
  'with "quotes" and \\ backslash.mp4',
  'semi;colon; filename=evil.exe.mp4',
  `${'é'.repeat(600)}${'x'.repeat(400)}.mp4`,
];

describe('output links for non-ASCII and hostile names', () => {
  it('answer 200 with an ASCII-only fallback and an exact UTF-8 filename*', async () => {
    for (const name of HOSTILE) {
      const dub = await completedDub(name);
      expect(Object.keys(dub.outputs).length).toBeGreaterThan(0);
      for (const [type, link] of Object.entries(dub.outputs)) {
        for (const url of [link.url, link.download_url]) {
          const res = await fetch(url);
          expect(res.status, `${type} of ${JSON.stringify(name.slice(0, 30))}`).toBe(200);
          await res.arrayBuffer();
          const header = res.headers.get('content-disposition') ?? '';
          // Every byte printable ASCII: no raw user bytes ever reach a header.
          expect(header).toMatch(/^[\x20-\x7e]+$/);
          const parsed = parseDisposition(header);
          expect(parsed.type).toBe(url === link.url ? 'inline' : 'attachment');
          expect(parsed.fallback).toMatch(/^[A-Za-z0-9 ._()+,=@&!#$'~-]+$/);
          // A file system takes it: at most 255 bytes, no separators or controls, extension kept.
          expect(Buffer.byteLength(parsed.extended)).toBeLessThanOrEqual(255);
          // eslint-disable-next-line no-control-regex -- controls are what must be absent
          expect(parsed.extended).not.toMatch(/[/\\\u0000-\u001f\u007f]/);
          expect(parsed.extended.split('.').at(-1)).toBe(parsed.fallback.split('.').at(-1));
        }
      }
      const vtt = parseDisposition(
        (await fetch(dub.outputs.translated_subtitle?.download_url ?? '')).headers.get(
          'content-disposition',
        ) ?? '',
      );
      if (name.length < 100) {
        // eslint-disable-next-line no-control-regex -- the same replacement the sandbox makes
        const stem = name.replace(/\.mp4$/, '').replace(/[\u0000-\u001f\u007f/\\]/g, '_');
        expect(vtt.extended).toBe(`${stem}.es.vtt`);
      } else {
        expect(vtt.extended.endsWith('.es.vtt')).toBe(true);
        expect(vtt.extended.startsWith('éééé')).toBe(true);
      }
    }
  });

  it('gives curl -OJ a usable file name', async () => {
    const dub = await completedDub('café "best" take.mp4');
    const dir = tempDir('dubdesk-curl-');
    // Asynchronous: the sandbox answering curl runs in this very process.
    await promisify(execFile)('curl', ['-sSf', '-OJ', dub.outputs.translated_mp4?.download_url ?? ''], {
      cwd: dir,
    });
    expect(readdirSync(dir)).toEqual(['caf_ _best_ take.es.mp4']);
  });
});
