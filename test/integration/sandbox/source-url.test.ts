import { readFile, rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAddress } from '../../../electron/sandbox/address-policy';
import { HttpError } from '../../../electron/sandbox/http-error';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { fetchSourceUrl, type SourcePolicy } from '../../../electron/sandbox/source-url';
import { ErrorBody } from '../../../shared/api/common';
import { DubV2 } from '../../../shared/api/v2';
import { tempDir } from '../../helpers/temp-dir';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { audioMp3, videoMp4 } from '../../helpers/media';

/** Local origins: "public" on 127.0.0.7 (the test's stand-in for the internet), "internal" on 127.0.0.1. */
interface Origin {
  server: Server;
  port: number;
  hits: IncomingMessage[];
}
async function origin(
  host: string,
  port = 0,
  handler?: (req: IncomingMessage) => string | null,
): Promise<Origin> {
  const hits: IncomingMessage[] = [];
  const media = await readFile(audioMp3());
  const server = createServer((req, res) => {
    hits.push(req);
    const redirect = handler?.(req);
    if (redirect) {
      res.writeHead(302, { location: redirect });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    res.end(media);
  });
  await new Promise<void>((r) => server.listen(port, host, r));
  return { server, port: (server.address() as { port: number }).port, hits };
}

let publicSide: Origin;
let internal: Origin;
const dir = tempDir('dubdesk-source-');
beforeAll(async () => {
  publicSide = await origin('127.0.0.7', 0, (req) =>
    req.url === '/hop' ? `http://127.0.0.1:${internal.port}/secret` : null,
  );
  // Same port, the address an attacker wants reached.
  internal = await origin('127.0.0.1', publicSide.port);
});
afterAll(() => {
  publicSide.server.close();
  internal.server.close();
});

/** The real rule, except that 127.0.0.7 counts as a public host. */
const policy = (resolve: SourcePolicy['resolve']): SourcePolicy => ({
  resolve,
  allowPrivate: false,
  check: (a) => (a === '127.0.0.7' ? { ok: true, address: a, family: 4 } : checkAddress(a)),
});

async function refusal(p: Promise<unknown>): Promise<HttpError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HttpError);
  return e as HttpError;
}

describe('source_url fetching resolves once and connects to the checked address', () => {
  it('a rebinding DNS answer (public, then loopback) never reaches loopback', async () => {
    const answers = [['127.0.0.7'], ['127.0.0.1']];
    let asked = 0;
    const rebinding = policy(async () => answers[Math.min(asked++, 1)] ?? []);
    const dest = join(dir, 'rebind.mp3');
    const got = await fetchSourceUrl(
      `http://media.example:${publicSide.port}/talk.mp3`,
      dest,
      1e9,
      rebinding,
    );
    expect(got.contentType).toBe('audio/mpeg');
    expect(got.bytes).toBe((await readFile(audioMp3())).length);
    expect(internal.hits).toHaveLength(0);
    expect(asked).toBe(1);
    // The Host header is still the URL's.
    expect(publicSide.hits.at(-1)?.headers.host).toBe(`media.example:${publicSide.port}`);
    await rm(dest, { force: true });
  });

  it('a name with any private answer is refused before connecting', async () => {
    const mixed = policy(async () => ['127.0.0.7', '127.0.0.1']);
    const e = await refusal(
      fetchSourceUrl(`http://mixed.example:${publicSide.port}/a.mp3`, join(dir, 'm'), 1e9, mixed),
    );
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/blocked/);
    const before = publicSide.hits.length;
    const loop = policy(async () => ['::1']);
    expect(
      (await refusal(fetchSourceUrl(`http://v6.example:${publicSide.port}/`, join(dir, 'n'), 1e9, loop)))
        .status,
    ).toBe(400);
    expect(publicSide.hits.length).toBe(before);
    expect(internal.hits).toHaveLength(0);
  });

  it('each redirect hop is checked the same way', async () => {
    const e = await refusal(
      fetchSourceUrl(
        `http://media.example:${publicSide.port}/hop`,
        join(dir, 'r'),
        1e9,
        policy(async () => ['127.0.0.7']),
      ),
    );
    expect(e.message).toMatch(/blocked/);
    expect(internal.hits).toHaveLength(0);
  });
});

describe('https source_url', () => {
  it('connects to the checked address with the URL host as TLS server name, and still verifies the certificate', async () => {
    const dir = tempDir('dubdesk-tls-');
    await promisify(execFile)('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=self-signed.test'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    ]);
    const names: string[] = [];
    const server = createTlsServer(
      {
        key: await readFile(join(dir, 'key.pem')),
        cert: await readFile(join(dir, 'cert.pem')),
        SNICallback: (name, cb) => {
          names.push(name);
          cb(null);
        },
      },
      (_req, res) => res.end('should not get here'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.7', r));
    const port = (server.address() as { port: number }).port;
    try {
      const e = await refusal(
        fetchSourceUrl(
          `https://media.example:${port}/a.mp3`,
          join(dir, 'a'),
          1e9,
          policy(async () => ['127.0.0.7']),
        ),
      );
      // The self-signed certificate is refused (verification stays on), after the right name was sent.
      expect(e.status).toBe(400);
      expect(e.message).toMatch(/unreachable/);
      expect(names).toEqual(['media.example']);
    } finally {
      server.close();
    }
  });
});

describe('v2 create refuses every loopback spelling', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox(
      { apiKey: 'ssrf-key', pipelineSeconds: 0.2 },
      { resolveHost: async () => ['127.0.0.1'] },
    );
  });
  afterAll(() => sb.stop());

  it('literal, numeric, mapped and named forms: 400 blocked, nothing fetched', async () => {
    const p = internal.port;
    for (const url of [
      `http://127.0.0.1:${p}/a.mp3`,
      `http://2130706433:${p}/a.mp3`,
      `http://0x7f.1:${p}/a.mp3`,
      `http://0177.0.0.1:${p}/a.mp3`,
      `http://127.1:${p}/a.mp3`,
      `http://0:${p}/a.mp3`,
      `http://[::1]:${p}/a.mp3`,
      `http://[::ffff:127.0.0.1]:${p}/a.mp3`,
      `http://[::127.0.0.1]:${p}/a.mp3`,
      `http://[::ffff:7f00:1]:${p}/a.mp3`,
      `http://localhost:${p}/a.mp3`,
      `http://localhost.:${p}/a.mp3`,
      `http://api.localhost:${p}/a.mp3`,
      `http://resolves-to-loopback.example:${p}/a.mp3`,
      `${sb.baseUrl}/api/v2/me`,
    ]) {
      const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
        headers: { apikey: 'ssrf-key' },
        json: { source_url: url, dest_lang: 'es' },
      });
      expect(r.status, url).toBe(400);
      expect(ErrorBody.parse(r.body).error, url).toMatch(/blocked/);
    }
    expect(internal.hits).toHaveLength(0);
  });

  it('accepts its own valid output links without a network fetch; refuses expired or forged ones', async () => {
    const created = DubV2.parse(
      (
        await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
          headers: { apikey: 'ssrf-key' },
          body: await formWithFile(videoMp4(), { dest_lang: 'es', name: 'once.mp4' }),
        })
      ).body,
    );
    const done = await waitFor('completion', async () => {
      const d = DubV2.parse(
        (await call('GET', `${sb.baseUrl}/api/v2/dubs/${created.id}`, { headers: { apikey: 'ssrf-key' } }))
          .body,
      );
      return d.external_status_id === 5 ? d : undefined;
    });
    const link = done.outputs.original?.download_url ?? '';
    const again = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
      headers: { apikey: 'ssrf-key' },
      json: { source_url: link, dest_lang: 'de' },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const second = DubV2.parse(again.body);
    expect(second).toMatchObject({ name: 'once.mp4', type: 'video/mp4', dest_lang: 'de' });
    const finished = await waitFor('the second dub', async () => {
      const d = DubV2.parse(
        (await call('GET', `${sb.baseUrl}/api/v2/dubs/${second.id}`, { headers: { apikey: 'ssrf-key' } }))
          .body,
      );
      return d.external_status_id >= 4 ? d : undefined;
    });
    expect(finished.external_status_id).toBe(5);
    expect(finished.measured_duration).toBeCloseTo(done.measured_duration ?? 0, 1);

    const forged = link.replace(/X-Amz-Signature=[0-9a-f]{4}/, 'X-Amz-Signature=0000');
    const other = link.replace('/original/', '/poster/');
    for (const bad of [forged, other]) {
      const r = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
        headers: { apikey: 'ssrf-key' },
        json: { source_url: bad, dest_lang: 'de' },
      });
      expect(r.status, bad).toBe(400);
    }
    sb.advanceClock(3601);
    try {
      const expired = await call('POST', `${sb.baseUrl}/api/v2/dubs`, {
        headers: { apikey: 'ssrf-key' },
        json: { source_url: link, dest_lang: 'de' },
      });
      expect(expired.status).toBe(400);
      expect(ErrorBody.parse(expired.body).error).toMatch(/expired/);
    } finally {
      sb.advanceClock(-3601);
    }
  });
});
