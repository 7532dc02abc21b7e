import { copyFileSync, statSync, truncateSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopTurns } from '../../../electron/engine/runner/idle';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, recordJobs } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3, videoMp4 } from '../../helpers/media';

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

describe('a dub made from the service copy sends nothing, so it never waits for the link', () => {
  it("with one upload at a time, a small file's other languages start while a larger file is still uploading", async () => {
    // A link of 1 MiB/s: the larger file takes seconds to send, the small one's first dub a fraction of one.
    const shaped = await startSandbox({
      ffmpeg: false,
      pipelineSeconds: 0.2,
      linkRateMiBps: 1,
      balance: 100_000,
    });
    const dir = tempDir('dubdesk-src-');
    const small = join(dir, 'copy-small.mp4');
    const large = join(dir, 'copy-large.mp4');
    copyFileSync(videoMp4(2, 'copy-order.mp4'), small);
    copyFileSync(small, large);
    truncateSync(large, 4 * 1024 * 1024);
    const host = engineFor(shaped);
    try {
      const seen = recordJobs(host.api);
      await host.api.add({
        inputs: [small, large],
        to: ['es', 'fr'],
        api: 'v2',
        uploadOnce: true,
        outDir: tempDir('dubdesk-out-'),
        force: true,
      });
      expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
      const moments = seen.map((j) => `${basename(j.source)}/${j.destLang}:${j.state}`);
      const first = (what: string) => moments.indexOf(what);
      // The small file's French is made from its Spanish dub's copy before the large file's bytes are in.
      expect(first('copy-small.mp4/fr:submitted')).toBeGreaterThan(-1);
      expect(first('copy-small.mp4/fr:submitted')).toBeLessThan(first('copy-large.mp4/es:submitted'));
      expect(shaped.state.ingest).toMatchObject({ createsFromFile: 2, createsFromOwnLink: 2 });
    } finally {
      await host.close();
      await shaped.stop();
    }
  });
});

describe('a job waiting for an upload slot', () => {
  it('is waited for without turning the runner: the end of the upload in the slot wakes it', async () => {
    // Two files of 3 MiB over a link of 1 MiB/s, one upload at a time: the second waits seconds, due.
    const shaped = await startSandbox({
      ffmpeg: false,
      pipelineSeconds: 0.2,
      linkRateMiBps: 1,
      balance: 100_000,
    });
    const dir = tempDir('dubdesk-src-');
    const files = ['slot-a.mp4', 'slot-b.mp4'].map((name) => {
      const p = join(dir, name);
      copyFileSync(videoMp4(2, `slot-${name}`), p);
      truncateSync(p, 3 * 1024 * 1024);
      return p;
    });
    const host = engineFor(shaped);
    try {
      let turns: number | null = null;
      let from = 0;
      host.api.subscribe((e) => {
        if (e.type !== 'job') return;
        if (e.job.state === 'uploading' && !from) from = loopTurns.runner;
        if (e.job.state === 'submitted' && turns === null) turns = loopTurns.runner - from;
      });
      await host.api.add({ inputs: files, to: ['es'], outDir: tempDir('dubdesk-out-'), force: true });
      expect(await host.run({ untilDone: true, concurrency: 1, pollIntervalMs: 50 })).toBe('done');
      // Seconds of upload: a turn a second at most, and one per wake (before, one every 10 ms: hundreds).
      expect(turns).not.toBeNull();
      expect(turns).toBeLessThan(30);
    } finally {
      await host.close();
      await shaped.stop();
    }
  });
});
