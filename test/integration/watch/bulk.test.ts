import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import {
  addFolder,
  duplicatesOf,
  folderOf,
  jobsOf,
  running,
  waitFor,
  watchEngine,
} from '../../helpers/watch';

/**
 * CI copies 300 files (600 jobs); `DUBDESK_WATCH_BULK=1000 npx vitest run --config test/vitest.config.ts
 * test/integration/watch/bulk.test.ts` runs the full thousand: 2,000 jobs about 7 s after the copy on two
 * quiet cores, 11-16 s inside a busy full suite. It is kept smaller in CI because for those seconds it
 * keeps a core busy hashing and probing beside tests that measure time.
 */
const COUNT = Number(process.env.DUBDESK_WATCH_BULK ?? 300);

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** `base` with an ID3v1 tag naming copy `i`: a distinct file (not a duplicate) of the same length. */
function tagged(base: Buffer, i: number): Buffer {
  const tag = Buffer.alloc(128);
  tag.write('TAG', 0, 'latin1');
  tag.write(`copy ${i}`, 3, 'latin1');
  return Buffer.concat([base, tag]);
}

describe('many files at once', () => {
  it(
    `queues ${COUNT} files copied in at once into two languages, each exactly once`,
    { timeout: 300_000 },
    async () => {
      const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 10_000_000 });
      cleanup.push(() => sb.stop());
      const host = watchEngine(sb, tempDir(), { settleMs: 1000, pollMs: 5000 });
      cleanup.push(() => host.close());
      const { api } = host;
      await api.pauseQueue(); // the watcher alone is measured: nothing is uploaded
      const dir = tempDir('dubdesk-watch-');
      const staging = tempDir('dubdesk-staging-');
      const folder = await addFolder(api, dir);
      const base = await readFile(audioMp3(1, 'bulk-1s.mp3'));
      for (let i = 0; i < COUNT; i++) await writeFile(join(staging, `clip-${i}.mp3`), tagged(base, i));
      const run = running(host);
      cleanup.push(() => run.stop());
      await waitFor(
        'watching',
        () => folderOf(api, folder.id),
        (f) => f.status === 'watching',
      );

      const started = Date.now();
      await Promise.all(
        Array.from({ length: COUNT }, (_, i) =>
          copyFile(join(staging, `clip-${i}.mp3`), join(dir, `clip-${i}.mp3`)),
        ),
      );
      const copied = Date.now();
      const jobs = await waitFor(
        `${COUNT * 2} jobs`,
        () => api.totals(),
        (t) => t.total >= COUNT * 2,
        200_000,
      );
      const queued = Date.now();
      // One more full scan: nothing is queued twice.
      const scanned = (await folderOf(api, folder.id)).lastScanAt;
      await waitFor(
        'a full scan',
        () => folderOf(api, folder.id),
        (f) => f.lastScanAt !== scanned,
        60_000,
      );
      const all = await jobsOf(api, folder.id);
      expect(all).toHaveLength(COUNT * 2);
      expect(duplicatesOf(all)).toEqual([]);
      expect((await folderOf(api, folder.id)).counts.queued).toBe(COUNT);
      console.log(
        `watch bulk: ${COUNT} files copied in ${copied - started} ms; ${jobs.total} jobs queued ${queued - copied} ms after the copy (settle time 1000 ms included)`,
      );
    },
  );
});
