import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { startSandbox } from '../../../electron/sandbox/server';
import { fakeService, type FakeService } from '../../helpers/fake-service';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('a dub in another language than the one asked', () => {
  it('is never saved under the asked language: the job fails naming both, charged as the service did', async () => {
    service = await fakeService({ dub: { dest_lang: 'zh' } });
    const host = openDubdesk({
      home: tempDir(),
      face: 'cli',
      service: { baseUrl: service.url, apiKey: 'k' },
      backoff: { baseMs: 20, capMs: 100 },
      maxServiceAttempts: 2,
    });
    const out = tempDir();
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'clip.mp4')], to: ['es'], outDir: out });
    expect(await host.run(quickRun())).toBe('done');
    const job = await host.api.getJob({ id: added[0] ?? 0 });
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/\bzh\b.*\bes\b/);
    expect(await readdir(out)).toEqual([]);
    expect(service.downloads()).toEqual([]);
    // The service completed it, so charged it (3.2 s measured: 4 credits): in the job and the header.
    expect(job.creditsCharged).toBe(4);
    expect(job.history.at(-1)?.reason).toMatch(/; the service charged 4 cr for it$/);
    expect((await host.api.totals()).creditsCharged).toBe(4);
    await host.close();
  });
});

describe.each(['v1', 'legacy'] as const)('over %s, a list item in another language', (api) => {
  it('fails the job naming both languages once the service completes it, with its charge; nothing is saved', async () => {
    const sb = await startSandbox({ pipelineSeconds: 1.5, balance: 10_000 });
    try {
      const host = engineFor(sb);
      const out = tempDir();
      const { added } = await host.api.add({
        inputs: [videoMp4(1, `lang-${api}.mp4`)],
        to: ['es'],
        api,
        outDir: out,
      });
      const run = host.run(quickRun());
      // The service starts the dub, then says it is another language.
      await expect
        .poll(() => [...sb.state.dubs.values()].filter((d) => d.destLang === 'es').length, {
          timeout: 20_000,
        })
        .toBe(1);
      for (const d of sb.state.dubs.values()) d.destLang = 'fr';
      expect(await run).toBe('done');
      const job = await host.api.getJob({ id: added[0] ?? 0 });
      expect(job.state).toBe('failed');
      expect(job.error?.message).toMatch(/\bfr\b.*\bes\b/);
      expect(await readdir(out)).toEqual([]);
      // The service charges what it completes, in whatever language (the legacy list says no length: the
      // dub's details are asked for it).
      expect(sb.state.ledger).toHaveLength(1);
      const charged = sb.state.ledger[0]?.seconds;
      expect(job.creditsCharged).toBe(charged);
      expect((await host.api.totals()).creditsCharged).toBe(charged);
      await host.close();
    } finally {
      await sb.stop();
    }
  });
});
