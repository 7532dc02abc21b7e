import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { parseAmzDate } from '../../../shared/presigned';
import { DubListV2, ProfileV2 } from '../../../shared/api/v2';
import { call, formWithFile, waitFor } from '../../helpers/http';
import { audioMp3, videoMp4 } from '../../helpers/media';

const auth = { apikey: 'sandbox-key' };
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

describe('under load', () => {
  it('200 concurrent creates: every one answered, /me still answers, never more media processes than the pool', async () => {
    sb = await startSandbox({ pipelineSeconds: 0.5, balance: 1e9 });
    const s = sb;
    const form = await formWithFile(audioMp3(), { dest_lang: 'es' }, 'audio/mpeg');
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        fetch(`${s.baseUrl}/api/v2/dubs`, { method: 'POST', headers: auth, body: form }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(statuses.filter((x) => x !== 201)).toEqual([]);
    const me = await call('GET', `${s.baseUrl}/api/v2/me`, { headers: auth });
    expect(me.status).toBe(200);
    ProfileV2.strict().parse(me.body);
    await waitFor('a first share of them to finish', async () => {
      const page = DubListV2.parse(
        (await call('GET', `${s.baseUrl}/api/v2/dubs?page_size=100&page=2`, { headers: auth })).body,
      ).dubs;
      return page.filter((d) => d.external_status_id === 5).length >= 6 ? true : undefined;
    });
    // Each dub needs a few ffprobe/ffmpeg runs: they all go through the pool, never more at once than its size.
    expect(s.media.started).toBeGreaterThanOrEqual(12);
    expect(s.media.peak).toBeLessThanOrEqual(s.media.size);
    expect(s.media.peak).toBeGreaterThan(0);
  });

  it('list pages reuse each dub’s presentation; links are re-signed once a minute old and expire an hour after the answer', async () => {
    sb = await startSandbox({ pipelineSeconds: 0.2 });
    const s = sb;
    for (let i = 0; i < 3; i++) {
      await call('POST', `${s.baseUrl}/api/v2/dubs`, {
        headers: auth,
        body: await formWithFile(videoMp4(), { dest_lang: 'es', name: `n${i}` }),
      });
    }
    const list = async () =>
      DubListV2.parse((await call('GET', `${s.baseUrl}/api/v2/dubs?page_size=100`, { headers: auth })).body);
    const first = await waitFor('completion', async () => {
      const l = await list();
      return l.dubs.every((d) => d.external_status_id === 5) ? l : undefined;
    });
    const linksOf = (l: DubListV2) =>
      l.dubs.flatMap((d) => Object.values(d.outputs).map((o) => o.download_url));
    const expiryOf = (url: string) => {
      const u = new URL(url);
      return (
        (parseAmzDate(u.searchParams.get('X-Amz-Date') ?? '') ?? 0) +
        Number(u.searchParams.get('X-Amz-Expires')) * 1000
      );
    };
    expect(linksOf(await list())).toEqual(linksOf(first));
    // 50 s on the sandbox clock plus the few real seconds this test takes stays under the minute.
    s.advanceClock(50);
    const later = await list();
    expect(linksOf(later)).toEqual(linksOf(first));
    for (const url of linksOf(later)) expect(expiryOf(url) - s.state.now()).toBeGreaterThan(3500 * 1000);
    s.advanceClock(11);
    const resigned = await list();
    expect(linksOf(resigned)).not.toEqual(linksOf(first));
    for (const url of linksOf(resigned)) expect(expiryOf(url) - s.state.now()).toBeGreaterThan(3590 * 1000);
    const ok = await fetch(linksOf(resigned)[0] ?? '');
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
  });
});
