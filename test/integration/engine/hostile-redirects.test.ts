import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { ApiError } from '../../../electron/engine/api/errors';
import { LegacyClient } from '../../../electron/engine/api/legacy';
import { V1Client } from '../../../electron/engine/api/v1';
import { V2Client } from '../../../electron/engine/api/v2';
import { HEAD_BYTES } from '../../../electron/engine/api/part-transfer';
import { tempDir } from '../../helpers/temp-dir';
import {
  PROFILE_V2,
  failure,
  json,
  readBody,
  type Fixture,
  serversClosedAfterEach,
} from '../../helpers/hostile';

const KEY = 'secret-key-123';
const server = serversClosedAfterEach();

/** The third party: records whatever reaches it, answers 200 to everything. */
async function evil(): Promise<Fixture> {
  return server(async (req, res, seen) => {
    await readBody(req, seen);
    json(res, 200, PROFILE_V2);
  });
}

function redirectingTo(location: (path: string) => string, status = 302): Promise<Fixture> {
  return server(async (req, res, seen) => {
    await readBody(req, seen);
    res.writeHead(status, { location: location(req.url ?? '/') });
    res.end();
  });
}

function keyHeaders(f: Fixture): string[] {
  return f.seen.flatMap((s) =>
    ['apikey', 'authorization'].filter((h) => s.headers[h] !== undefined).map((h) => `${s.url}:${h}`),
  );
}

async function file(bytes: number): Promise<string> {
  const path = join(tempDir(), 'in.mp4');
  await writeFile(path, Buffer.alloc(bytes, 7));
  return path;
}

describe('an API call answered with a redirect to another host', () => {
  it.each([
    ['v2 me', (base: string) => new V2Client(base, KEY).me()],
    ['v1 me', (base: string) => new V1Client(base, KEY).me()],
    ['v1 list', (base: string) => new V1Client(base, KEY).list()],
    ['legacy list', (base: string) => new LegacyClient(base, KEY).list()],
    ['v2 details', (base: string) => new V2Client(base, KEY).get('d1')],
  ])('%s: fails naming the host, and the key never leaves', async (_name, call) => {
    const other = await evil();
    const host = new URL(other.url).host;
    const service = await redirectingTo((p) => `${other.url}${p}`);
    const e = await failure(call(service.url));
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ kind: 'redirect', retry: 'bounded' });
    expect((e as ApiError).message).toContain(host);
    expect((e as ApiError).message).toContain('API key');
    expect(other.seen).toEqual([]);
  });

  it.each([301, 302, 303, 307, 308])(
    'v2 create with a file (%i): the upload is not sent again',
    async (status) => {
      const other = await evil();
      const service = await redirectingTo((p) => `${other.url}${p}`, status);
      const e = await failure(
        new V2Client(service.url, KEY).createFromFile(await file(50_000), 'video/mp4', {
          dest_lang: 'es',
          source_lang: 'auto',
          name: 'in.mp4',
          is_studio_quality: false,
        }),
      );
      expect(e).toMatchObject({ kind: 'redirect' });
      expect(other.seen).toEqual([]);
    },
  );

  it('v1 init and start (POST with JSON) are not followed even to the same host', async () => {
    const service = await server(async (req, res, seen) => {
      await readBody(req, seen);
      if (req.url === '/api/v1/init-dub') {
        res.writeHead(307, { location: '/api/v1/elsewhere' });
        res.end();
      } else json(res, 200, {});
    });
    const e = await failure(
      new V1Client(service.url, KEY).init({
        fileType: 'video/mp4',
        name: 'a.mp4',
        source_lang: 'auto',
        dest_lang: 'es',
      }),
    );
    expect(e).toMatchObject({ kind: 'redirect', status: 307 });
    expect(service.seen.map((s) => s.url)).toEqual(['/api/v1/init-dub']);
  });

  it('the public language list does not follow another host either', async () => {
    const other = await evil();
    const service = await redirectingTo((p) => `${other.url}${p}`);
    const { langs } = createServiceClients({ baseUrl: service.url, legacyUrl: null, apiKey: KEY });
    expect(await failure(langs.targetCodes())).toMatchObject({ kind: 'redirect' });
    expect(other.seen).toEqual([]);
  });

  it('a same-origin redirect of a GET is followed; a chain that then leaves the origin is not', async () => {
    const other = await evil();
    const service = await server(async (req, res, seen) => {
      await readBody(req, seen);
      if (req.url === '/api/v2/me') {
        res.writeHead(301, { location: '/api/v2/me/' });
        res.end();
      } else if (req.url === '/api/v2/me/') json(res, 200, PROFILE_V2);
      else {
        res.writeHead(302, { location: req.url === '/api/v1/me' ? '/hop' : `${other.url}/steal` });
        res.end();
      }
    });
    const { v2, v1 } = createServiceClients({ baseUrl: service.url, legacyUrl: null, apiKey: KEY });
    expect(await v2.me()).toMatchObject({ id: 'u1' });
    expect(service.seen.map((s) => s.headers.apikey)).toEqual([KEY, KEY]);
    expect(await failure(v1.me())).toMatchObject({ kind: 'redirect' });
    expect(other.seen).toEqual([]);
  });
});

describe('downloads from pre-signed links', () => {
  it('follow storage redirects to another port, which never sees a key', async () => {
    const payload = Buffer.alloc(30_000, 3);
    const storage = await server(async (req, res, seen) => {
      await readBody(req, seen);
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': payload.length });
      res.end(payload);
    });
    const front = await redirectingTo((p) => `${storage.url}${p}`, 307);
    const clients = createServiceClients({ baseUrl: front.url, legacyUrl: front.url, apiKey: KEY });
    const part = join(tempDir(), 'out.mp4.part');
    const got = await clients.downloads.toPart(`${front.url}/obj?X-Amz-Signature=abc`, part);
    expect(got).toEqual({
      bytes: payload.length,
      contentType: 'video/mp4',
      head: payload.subarray(0, HEAD_BYTES),
      sha256: createHash('sha256').update(payload).digest('hex'),
      identity: { dev: (await stat(part)).dev, ino: (await stat(part)).ino },
    });
    expect((await readFile(part)).equals(payload)).toBe(true);
    expect(storage.seen).toHaveLength(1);
    for (const s of [...front.seen, ...storage.seen]) {
      expect(s.headers).not.toHaveProperty('apikey');
      expect(s.headers).not.toHaveProperty('authorization');
    }
  });

  it.each(['file:///etc/passwd', 'ftp://127.0.0.1/x', 'data:text/plain,hello'])(
    'do not follow a redirect to %s',
    async (to) => {
      const front = await redirectingTo(() => to);
      const { downloads } = createServiceClients({ baseUrl: front.url, legacyUrl: null, apiKey: KEY });
      const e = await failure(downloads.toPart(`${front.url}/obj`, join(tempDir(), 'x.part')));
      expect(e).toMatchObject({ kind: 'bad-link', retry: 'bounded' });
    },
  );
});

describe('pre-signed PUT uploads', () => {
  it.each([301, 302, 307, 308])('are not redirected (%i): the file goes nowhere else', async (status) => {
    const other = await evil();
    const storage = await redirectingTo((p) => `${other.url}${p}`, status);
    const v1 = new V1Client(storage.url, KEY);
    const e = await failure(v1.upload(`${storage.url}/up?sig=1`, await file(40_000), 'video/mp4'));
    expect(e).toMatchObject({ kind: 'redirect' });
    expect(other.seen).toEqual([]);
    expect(keyHeaders(storage)).toEqual([]);
    expect(storage.seen[0]?.headers).not.toHaveProperty('apikey');
  });
});
