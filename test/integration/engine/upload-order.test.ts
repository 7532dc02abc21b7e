import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, recordJobs, tempDir } from '../../helpers/engine';
import { audioMp3 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.1, balance: 100_000 });
});
afterAll(() => sb.stop());

describe('the scheduler sends small files first', () => {
  it('a batch added largest first is uploaded smallest first, so the first result comes back early', async () => {
    const files = [
      audioMp3(6, 'order-big.mp3'),
      audioMp3(3, 'order-mid.mp3'),
      audioMp3(1, 'order-small.mp3'),
    ];
    const sizes = files.map((f) => statSync(f).size);
    expect(sizes[0]).toBeGreaterThan(sizes[1] ?? 0);
    expect(sizes[1]).toBeGreaterThan(sizes[2] ?? 0);
    const host = engineFor(sb);
    try {
      const seen = recordJobs(host.api);
      await host.api.add({ inputs: files, to: ['es'], outDir: tempDir('dubdesk-out-'), force: true });
      expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
      const uploads: string[] = [];
      for (const j of seen)
        if (j.state === 'uploading' && !uploads.includes(j.source)) uploads.push(j.source);
      expect(uploads).toEqual([...files].reverse());
    } finally {
      await host.close();
    }
  });
});
