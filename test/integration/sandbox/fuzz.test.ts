import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../electron/sandbox/faults';
import { InitDubV1Response } from '../../../shared/api/v1';
import { DubV2, ProfileV2 } from '../../../shared/api/v2';
import { tempDir } from '../../helpers/temp-dir';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { videoMp4 } from '../../helpers/media';
import { rawRequest, startSandboxProcess, type SandboxProcess } from '../../helpers/sandbox-process';

/**
 * Random hostile HTTP against a sandbox child process. Replay a failure with SANDBOX_FUZZ_SEED=<seed>
 * (every assertion message names the seed). Bounded: at most REQUESTS requests and BUDGET_MS.
 */
const SEED = Number(process.env.SANDBOX_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const REQUESTS = 700;
const BUDGET_MS = 8_000;
const CONCURRENCY = 6;
const KEY = 'sandbox-key';

let sp: SandboxProcess;
let known: { uploadPath: string; outputPath: string; dubId: string };
let media: Buffer;
beforeAll(async () => {
  // With a state directory, so every answer also goes through the save-before-answering path.
  const state = ['--state-dir', tempDir('dubdesk-fuzz-state-')];
  sp = await startSandboxProcess([
    '--max-upload-bytes',
    '200000',
    '--pipeline-seconds',
    '0.3',
    '--seed',
    '5',
    ...state,
  ]);
  media = await readFile(videoMp4());
  const init = InitDubV1Response.parse(
    (
      await call('POST', `${sp.baseUrl}/api/v1/init-dub`, {
        headers: { apikey: KEY },
        json: { fileType: 'video/mp4', name: 'fuzz.mp4', source_lang: 'auto', dest_lang: 'es' },
      })
    ).body,
  );
  const created = DubV2.parse(
    (
      await call('POST', `${sp.baseUrl}/api/v2/dubs`, {
        headers: { apikey: KEY },
        body: await formWithFile(videoMp4(), { dest_lang: 'fr' }),
      })
    ).body,
  );
  const done = await waitFor('a completed dub', async () => {
    const d = DubV2.parse(
      (await call('GET', `${sp.baseUrl}/api/v2/dubs/${created.id}`, { headers: { apikey: KEY } })).body,
    );
    return d.external_status_id === 5 ? d : undefined;
  });
  const upload = new URL(init.uploadUrl);
  const output = new URL(done.outputs.translated_mp4?.download_url ?? '');
  known = {
    uploadPath: `${upload.pathname}${upload.search}`,
    outputPath: `${output.pathname}${output.search}`,
    dubId: done.id,
  };
});
afterAll(() => sp.stop());

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const bytes = (r: Rng, n: number) => Buffer.from(Array.from({ length: n }, () => int(r, 0, 255)));

function path(r: Rng): string {
  const real = [
    '/api/v2/me',
    '/api/v2/dubs',
    `/api/v2/dubs/${known.dubId}`,
    '/api/v2/dubs?page=2&page_size=100',
    '/api/v1/me',
    '/api/v1/dubs',
    '/api/v1/init-dub',
    '/api/v1/start-dub',
    '/legacy/v1/init-dub',
    '/legacy/v1/start-dub',
    '/legacy/v1/dubs',
    '/api/langs',
    '/flags/es.svg',
    known.uploadPath,
    known.outputPath,
    '/__sandbox/state',
    '/__sandbox/faults',
    '/__sandbox/clock',
    '/__sandbox/accounts/usr_1/balance',
  ];
  const garbage = [
    '/',
    '*',
    '/..',
    '/../../etc/passwd',
    '/storage/outputs/../../../etc/passwd/x/y',
    `/storage/outputs/${known.dubId}/translated_mp4/%00`,
    '/api/v2/dubs/%00',
    '/api/v2/dubs/%ZZ%E0%A4',
    '/api/v2/dubs?page=-1&page_size=1e309',
    '/api/v2/dubs?page=1&page=2&page_size=',
    `/${'a'.repeat(int(r, 1000, 20_000))}`,
    'http://[bad/api/v2/me',
    'http://evil.example/api/v2/me',
    '//evil.example/api/v2/me',
    known.uploadPath.replace(/X-Amz-Signature=[0-9a-f]+/, 'X-Amz-Signature=zz'),
    known.outputPath.replace('translated_mp4', 'poster'),
    `${known.outputPath}&X-Amz-Expires=999999999`,
  ];
  const p = r() < 0.6 ? pick(r, real) : pick(r, garbage);
  return r() < 0.1
    ? `${p}${p.includes('?') ? '&' : '?'}${encodeURIComponent(bytes(r, 8).toString('latin1'))}`
    : p;
}

function body(r: Rng, boundary: string): Buffer {
  const json = [
    JSON.stringify({ dest_lang: 'es', source_url: 'http://127.0.0.1:1/x.mp4' }),
    JSON.stringify({ fileType: 'video/mp4', name: 'é\r\n"x".mp4', source_lang: 'auto', dest_lang: 'de' }),
    JSON.stringify({
      dest_lang: 'fr',
      duration: 3,
      fileType: 'video/mp4',
      name: 'n.mp4',
      source_lang: 'auto',
    }),
    JSON.stringify({ fileId: known.dubId }),
    JSON.stringify({ id: known.dubId }),
    JSON.stringify({ advanceSeconds: 1 }),
    JSON.stringify({ seconds: 3600 }),
    JSON.stringify({ rate502: 'x' }),
    JSON.stringify({ advanceSeconds: 1e300 }),
    JSON.stringify({ seconds: -1e308 }),
    JSON.stringify({ latencyMs: 1e12 }),
    '{"unterminated": ',
    'null',
    '[1,2,3]',
    '"\\ud800"',
  ];
  const multipart = (fileBytes: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="dest_lang"\r\n\r\n${pick(r, ['es', 'auto', 'xx', ''])}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${pick(r, ['a.mp4', 'é.mp4', '', '"'])}"\r\n` +
          `Content-Type: ${pick(r, ['video/mp4', 'application/octet-stream', 'text/plain', 'video/mp4\u00ff'])}\r\n\r\n`,
        'latin1',
      ),
      fileBytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  switch (int(r, 0, 4)) {
    case 0:
      return Buffer.from(pick(r, json));
    case 1:
      return multipart(media);
    case 2:
      return multipart(bytes(r, int(r, 0, 5000)));
    case 3:
      return bytes(r, int(r, 0, 300_000));
    default:
      return Buffer.alloc(0);
  }
}

function headers(r: Rng, len: number, boundary: string): { lines: string[]; chunked: boolean } {
  const lines: string[] = [];
  const add = (k: string, v: string) => lines.push(`${k}: ${v}`);
  if (r() < 0.85) add('Host', pick(r, ['127.0.0.1', 'evil.example', '', 'a'.repeat(300)]));
  if (r() < 0.6)
    add(pick(r, ['apikey', 'ApiKey', 'Authorization']), pick(r, [KEY, `Bearer ${KEY}`, 'wrong', '']));
  if (r() < 0.2) add('x-sandbox-admin', pick(r, [sp.adminToken, 'guess', '']));
  if (r() < 0.7)
    add(
      'Content-Type',
      pick(r, [
        'application/json',
        `multipart/form-data; boundary=${boundary}`,
        'multipart/form-data',
        'multipart/form-data; boundary=',
        'multipart/form-data; boundary="unterminated',
        'text/plain',
        'video/mp4',
        'application/json; charset=utf-16',
      ]),
    );
  let chunked = false;
  const framing = int(r, 0, 6);
  if (framing <= 2) add('Content-Length', String(len));
  else if (framing === 3)
    add(
      'Content-Length',
      pick(r, [
        String(len + int(r, 1, 5000)),
        String(Math.max(0, len - 10)),
        '-1',
        'abc',
        '1e3',
        '99999999999999999999',
      ]),
    );
  else if (framing === 4) {
    add('Transfer-Encoding', 'chunked');
    chunked = true;
  } else if (framing === 5) {
    add('Content-Length', String(len));
    add('Content-Length', String(len + 1));
  } else {
    add('Transfer-Encoding', 'chunked');
    add('Content-Length', String(len));
    chunked = true;
  }
  if (r() < 0.05) add('X-Huge', 'h'.repeat(int(r, 10_000, 100_000)));
  if (r() < 0.1) for (let i = 0; i < int(r, 2, 200); i++) add('X-Dup', String(i));
  if (r() < 0.05)
    add('Range', pick(r, ['bytes=0-0', 'bytes=-', 'bytes=999999999-', 'bytes=a-b', 'items=1-2']));
  if (r() < 0.05)
    lines.push(pick(r, ['Bad Header Line', 'X-Ctl: a\u0001b', ': empty-name', 'X-Latin: \u00e9']));
  return { lines, chunked };
}

function chunkedBody(r: Rng, data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < data.length;) {
    const n = Math.min(data.length - at, int(r, 1, 70_000));
    const size = r() < 0.05 ? pick(r, ['zz', '-1', 'fffffffffffffffff', '']) : n.toString(16);
    parts.push(
      Buffer.from(`${size}\r\n`),
      data.subarray(at, at + n),
      Buffer.from(r() < 0.05 ? 'XX' : '\r\n'),
    );
    at += n;
  }
  if (r() < 0.9) parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

async function oneRequest(r: Rng): Promise<{ status: number; text: string; what: string }> {
  const method = pick(r, [
    'GET',
    'GET',
    'POST',
    'POST',
    'PUT',
    'HEAD',
    'DELETE',
    'OPTIONS',
    'PATCH',
    'G ET',
    'X'.repeat(100),
  ]);
  const boundary = pick(r, ['XX', 'x'.repeat(80), '----b']);
  const target = path(r);
  const data = body(r, boundary);
  const { lines, chunked } = headers(r, data.length, boundary);
  const payload = chunked ? chunkedBody(r, data) : data;
  const cut = r() < 0.25 ? int(r, 0, payload.length) : payload.length;
  const head = `${method} ${target} HTTP/1.${r() < 0.95 ? 1 : 0}\r\n${lines.join('\r\n')}${lines.length ? '\r\n' : ''}\r\n`;
  const end =
    cut < payload.length
      ? pick(r, ['destroy', 'half-close'] as const)
      : pick(r, ['keep', 'keep', 'half-close', 'destroy'] as const);
  const reply = await rawRequest(sp.port, [Buffer.from(head, 'latin1'), payload.subarray(0, cut)], {
    end,
    waitMs: int(r, 1, 800),
  });
  return {
    ...reply,
    what: `${method.slice(0, 10)} ${target.slice(0, 80)} (${lines.length} headers, ${cut}/${payload.length} bytes, ${end})`,
  };
}

describe(`fuzzing the sandbox over raw sockets (seed ${SEED})`, () => {
  it(
    'stays up, never answers 500 or a stack trace, and still serves /me correctly',
    { timeout: 60_000 },
    async () => {
      const master = mulberry32(SEED);
      const deadline = Date.now() + BUDGET_MS;
      let sent = 0;
      const failures: string[] = [];
      const faultPhases = [
        {},
        { latencyMs: 20 },
        { rateLostResponse: 0.3, rateReset: 0.1, rateTruncate: 0.3 },
        {},
      ];
      for (const [phase, faults] of faultPhases.entries()) {
        await call('PUT', `${sp.baseUrl}/__sandbox/faults`, {
          headers: { 'x-sandbox-admin': sp.adminToken },
          json: { latencyMs: 0, rateLostResponse: 0, rateReset: 0, rateTruncate: 0, ...faults },
        });
        const phaseEnd = Math.min(deadline, Date.now() + BUDGET_MS / faultPhases.length);
        const worker = async (w: number) => {
          const r = mulberry32(Math.floor(master() * 2 ** 31) + w + phase * 1000);
          while (sent < REQUESTS && Date.now() < phaseEnd && sp.alive()) {
            sent++;
            const { status, text, what } = await oneRequest(r);
            if (status === 500 || /HTTP\/1\.[01] 500/.test(text)) failures.push(`500 for ${what}`);
            if (/\n\s+at .+:\d+:\d+/.test(text)) failures.push(`stack trace for ${what}`);
          }
        };
        await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
      }
      await call('PUT', `${sp.baseUrl}/__sandbox/faults`, {
        headers: { 'x-sandbox-admin': sp.adminToken },
        json: { latencyMs: 0, rateLostResponse: 0, rateReset: 0, rateTruncate: 0 },
      });
      expect(sent, `seed ${SEED}`).toBeGreaterThan(50);
      expect(sp.alive(), `seed ${SEED}: the sandbox died: ${sp.stderr()}`).toBe(true);
      expect(failures, `seed ${SEED}`).toEqual([]);
      expect(sp.stderr(), `seed ${SEED}`).not.toMatch(/Error|\n\s+at /);
      const me = await call('GET', `${sp.baseUrl}/api/v2/me`, { headers: { apikey: KEY } });
      expect(me.status, `seed ${SEED}`).toBe(200);
      expect(ProfileV2.strict().parse(me.body).id).toBe('usr_1');
    },
  );
});
