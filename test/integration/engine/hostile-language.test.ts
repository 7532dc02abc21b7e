import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openDubdesk } from '../../../electron/engine/index';
import { fakeService, type FakeService } from '../../helpers/fake-service';
import { quickRun, tempDir } from '../../helpers/engine';
import { videoMp4 } from '../../helpers/media';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('a dub in another language than the one asked', () => {
  it('is never saved under the asked language: the job fails naming both', async () => {
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
    await host.close();
  });
});
