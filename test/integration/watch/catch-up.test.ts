import fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/engine/db/open';
import { startSandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/engine';
import { countFileCalls } from '../../helpers/fs-calls';
import { addFolder, folderOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('a restart over a big watched folder', () => {
  it('stats each unchanged file once (one walk, once events are heard) and opens none', async () => {
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const home = tempDir();
    const dir = tempDir('dubdesk-watch-');
    // The folder as a previous session left it: 2,000 files, each taken, none changed since.
    const first = watchEngine(sb, home);
    const folder = await addFolder(first.api, dir, { recursive: true });
    await first.close();
    const FILES = 2000;
    const db = openDatabase(join(home, 'dubdesk.db'));
    const now = Date.now();
    const insert = db.prepare(
      `INSERT INTO watch_files (folder_id, path, status, size, mtime_ms, hash, changed_at, wait_since,
         first_seen_at, taken_at, updated_at) VALUES (?, ?, 'taken', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < FILES; i++) {
        const sub = join(dir, `shoot-${i % 10}`);
        fs.mkdirSync(sub, { recursive: true });
        const path = join(sub, `clip-${i}.mp4`);
        fs.writeFileSync(path, `clip ${i}\n`);
        const s = fs.statSync(path);
        insert.run(
          folder.id,
          path,
          s.size,
          Math.round(s.mtimeMs),
          `${i}`.padEnd(64, '0'),
          now,
          now,
          now,
          now,
          now,
        );
      }
    })();
    db.close();

    const calls = countFileCalls((p) => p.startsWith(dir));
    cleanup.push(calls.undo);
    const host = watchEngine(sb, home);
    cleanup.push(() => host.close());
    await host.api.pauseQueue();
    const run = running(host);
    cleanup.push(() => run.stop());
    await waitFor(
      'the folder to be watched again, its catch-up done',
      () => folderOf(host.api, folder.id),
      (f) => f.status === 'watching' && f.lastScanAt !== null,
    );
    expect(calls.opens(), 'files opened (hashed, probed) by the catch-up').toBe(0);
    expect(calls.stats() / FILES, 'stats per file (its folders and checks besides)').toBeLessThan(1.5);
    const files = await host.api.listWatchFiles({ id: folder.id, offset: 0, limit: 1 });
    expect(files.total).toBe(FILES);
  });

  it('a folder watched through file-system events is not scanned again on a timer; a polled one is', async () => {
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const host = watchEngine(sb, tempDir(), { pollMs: 300, eventRescanMs: Number.POSITIVE_INFINITY });
    cleanup.push(() => host.close());
    await host.api.pauseQueue();
    const evented = await addFolder(host.api, tempDir('dubdesk-watch-'));
    const polled = await addFolder(host.api, tempDir('dubdesk-watch-'), { polling: 'always' });
    const run = running(host);
    cleanup.push(() => run.stop());
    const scanned = async () => ({
      evented: (await folderOf(host.api, evented.id)).lastScanAt,
      polled: (await folderOf(host.api, polled.id)).lastScanAt,
    });
    const first = await waitFor('both folders scanned once', scanned, (s) => !!s.evented && !!s.polled);
    let polledScans = 0;
    let last = first.polled;
    await waitFor(
      'three more scans of the polled folder',
      async () => {
        const s = await scanned();
        if (s.polled !== last) {
          polledScans++;
          last = s.polled;
        }
        return polledScans;
      },
      (n) => n >= 3,
    );
    expect((await scanned()).evented, 'the evented folder was not scanned again').toBe(first.evented);
  });
});
