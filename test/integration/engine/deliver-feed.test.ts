import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PackageView } from '../../../shared/contract/jobs';
import type { DubdeskHost } from '../../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { talkVideo } from '../../helpers/deliver-media';
import { engineFor } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

const PATIENT = { timeout: 45_000, interval: 100 };

/**
 * What a face does on "list again": it reads the source rows, and shows each source's package. Every
 * package it was shown, in order.
 */
function packagesShown(host: DubdeskHost, source: string): (PackageView | null)[] {
  const shown: (PackageView | null)[] = [];
  host.api.subscribe((e) => {
    if (e.type !== 'jobs-changed') return;
    void host.api.listSources({ offset: 0, limit: 50 }).then((page) => {
      shown.push(page.sources.find((s) => s.source === source)?.package ?? null);
    });
  });
  return shown;
}

/**
 * The window and the worker are two engines on one data folder (the desktop app and a terminal's `dubdesk
 * run`): what the worker makes of a package, the window hears on the change feed without asking, and a
 * Package now in the window is heard by the worker, asleep, at once.
 */
describe('packages on the change feed, across two engines on one data folder', () => {
  it("the window hears the worker's package made, and the worker hears the window's Package now", async () => {
    const work = tempDir('dubdesk-deliver-feed-');
    const home = join(work, 'home');
    const source = join(work, 'talk.mp4');
    copyFileSync(talkVideo(6), source);
    const worker = engineFor(sb, home);
    const window = engineFor(sb, home);
    const stop = new AbortController();
    // Asleep, the worker looks again only after ten minutes: only the feed can wake it before this ends.
    const running = worker.run({
      untilDone: false,
      concurrency: 2,
      pollIntervalMs: 50,
      idleLookMs: 600_000,
      signal: stop.signal,
      watch: false,
    });
    try {
      const inWindow = packagesShown(window, source);
      const inWorker = packagesShown(worker, source);
      await window.api.add({ inputs: [source], to: ['es'], package: 'mkv', subtitles: ['vtt'] });
      const mkv = join(work, 'talk.multi.mkv');
      await vi.waitFor(() => expect(inWindow.at(-1)?.state).toBe('done'), PATIENT);
      expect(inWindow.at(-1)?.path).toBe(mkv);
      expect(existsSync(mkv)).toBe(true);
      await vi.waitFor(() => expect(inWorker.at(-1)?.state).toBe('done'), PATIENT);

      const mp4 = join(work, 'talk.multi.mp4');
      await window.api.packageNow({ source, format: 'mp4' });
      await vi.waitFor(() => {
        expect(inWindow.at(-1)?.format).toBe('mp4');
        expect(inWindow.at(-1)?.state).toBe('done');
      }, PATIENT);
      expect(inWindow.at(-1)?.path).toBe(mp4);
      expect(existsSync(mp4)).toBe(true);
    } finally {
      stop.abort();
      await running;
      await window.close();
      await worker.close();
    }
  });
});
