import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServiceClients } from '../../../electron/engine/api/clients';
import { openDubdesk } from '../../../electron/engine/index';
import { ServiceAddressSchema } from '../../../shared/contract/service-address';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { PROFILE_V2, failure, json, serversClosedAfterEach, type Fixture } from '../../helpers/hostile';

const server = serversClosedAfterEach();
const KEY = 'SECRET-KEY-1234';

/** A service that answers the profile and empty lists: enough for every client to send its key. */
const answering = () =>
  server((req, res) => {
    if (req.url?.includes('/me')) return json(res, 200, PROFILE_V2);
    if (req.url?.startsWith('/api/v2/dubs'))
      return json(res, 200, { dubs: [], pagination: { page: 1, page_size: 100, total: 0, total_pages: 0 } });
    return json(res, 200, []);
  });

const keySeenBy = (f: Fixture) => f.seen.filter((s) => JSON.stringify(s.headers).includes(KEY));

/**
 * `\` is user-info to a hand-made pattern but a path separator to the URL parser that sends requests: an
 * address such as `http://127.0.0.1:EVIL\@127.0.0.1:REAL` must never carry the key to EVIL.
 */
describe('a service address that reads as one host and sends to another', () => {
  const tricks = (evil: Fixture, real: Fixture) => {
    const e = new URL(evil.url).host;
    const r = new URL(real.url).host;
    return [
      `http://${e}\\@${r}`,
      `http://${e}\\@${r}/`,
      `http://${r}@${e}`,
      `http://user:pw@${e}`,
      `http://${e}#@${r}`,
      `http://${e}?@${r}`,
      `http://${e}/\\..\\@${r}`,
      ` http://${e}\t@${r}`,
    ];
  };

  it('is refused as a setting, and for a key being tested', async () => {
    const [evil, real] = [await answering(), await answering()];
    for (const address of tricks(evil, real))
      expect(ServiceAddressSchema.safeParse(address).success, address).toBe(false);
    // Plain addresses still pass, with or without a path and a trailing slash.
    for (const ok of [real.url, `${real.url}/`, `${real.url}/base`, 'https://dub.example.com/api-root/'])
      expect(ServiceAddressSchema.safeParse(ok).success, ok).toBe(true);
  });

  it('never carries a stored key to the other host (v2, v1, legacy, account, testKey)', async () => {
    const [evil, real] = [await answering(), await answering()];
    for (const address of tricks(evil, real)) {
      const home = tempDir();
      // As a service.json edited by hand (or written before this check) would hold it.
      writeFileSync(
        join(home, 'service.json'),
        JSON.stringify({
          mode: 'service',
          baseUrl: address,
          legacyUrl: address,
          apiKey: KEY,
          keyOrigins: [new URL(real.url).origin],
        }),
      );
      const engine = openDubdesk({
        home,
        face: 'cli',
        backoff: { baseMs: 20, capMs: 40 },
        maxServiceAttempts: 2,
      });
      await failure(engine.api.account());
      await failure(engine.api.testKey({ apiKey: KEY, baseUrl: address }));
      const out = tempDir('dubdesk-out-');
      for (const api of ['v2', 'v1', 'legacy'] as const)
        await engine.api
          .add({ inputs: [videoMp4(1, `a-${api}.mp4`)], to: ['es'], api, outDir: out })
          .catch(() => undefined);
      await engine.run({ untilDone: true, concurrency: 2, pollIntervalMs: 20 }).catch(() => undefined);
      await engine.close();

      // The clients themselves refuse such a root, whoever builds them.
      const clients = createServiceClients({ baseUrl: address, legacyUrl: address, apiKey: KEY });
      await failure(clients.v2.me());
      await failure(clients.v1.me());
      await failure(clients.legacy?.list());
      await failure(clients.langs.targetCodes());
      expect(keySeenBy(evil), address).toEqual([]);
    }
    expect(evil.seen.length).toBe(0);
  });
});
