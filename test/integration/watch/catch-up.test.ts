import fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../electron/engine/db/open';
import { WatchFiles } from '../../../electron/engine/db/watch-store/files';
import { WatchLinks } from '../../../electron/engine/db/watch-store/links';
import { WatchViews } from '../../../electron/engine/db/watch-store/views';
import { loopTurns } from '../../../electron/engine/runner/idle';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { countFileCalls } from '../../helpers/fs-calls';
import { addFolder, filesOf, folderOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('a restart over a big watched folder', () => {
  it('stats each unchanged file once (one walk, once events are heard) and opens none', async () => {
    // The folder as a previous session left it: 2,000 files, each taken, none changed since.
    const FILES = 2000;
    const { sb, home, dir, folder } = await takenFolder(FILES);

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

  it('a restart does not look through outcomes already recorded (every file and job of the folder)', async () => {
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const home = tempDir();
    const dir = tempDir('dubdesk-watch-');
    const settled = vi.spyOn(WatchViews.prototype, 'settled');
    cleanup.push(() => settled.mockRestore());
    const first = watchEngine(sb, home);
    const folder = await addFolder(first.api, dir);
    const run1 = running(first);
    await waitFor(
      'the folder watched, its outcomes looked at',
      () => folderOf(first.api, folder.id),
      (f) => f.status === 'watching' && settled.mock.calls.length > 0,
    );
    await run1.stop();
    await first.close();

    settled.mockClear();
    await restarted(sb, home, folder.id);
    // The turn after the scan is where outcomes were looked through again.
    const turns = loopTurns.watcher;
    await waitFor(
      'two more watcher turns',
      async () => loopTurns.watcher,
      (n) => n >= turns + 2,
    );
    // Each look read every file and job of the folder (20,000 of each, 30 ms, in a big one) at each start.
    expect(settled.mock.calls.length).toBe(0);
  });

  it("a restart counts a folder's jobs once: its own writes (its state, its scan) do not count them again", async () => {
    const { sb, home, folder } = await takenFolder(20);
    await watchedOnce(sb, home, folder.id);

    const counted = vi.spyOn(WatchLinks.prototype, 'jobSignature');
    cleanup.push(() => counted.mockRestore());
    await restarted(sb, home, folder.id);
    const turns = loopTurns.watcher;
    await waitFor(
      'two more watcher turns',
      async () => loopTurns.watcher,
      (n) => n >= turns + 2,
    );
    // Each count reads every job of the folder (20,000 in the idle bench's, 1.3 ms): it was made again
    // after each of the catch-up's writes to the folder's row, 8 times per folder at a restart.
    expect(counted.mock.calls.length).toBe(1);
  });

  it('a restart asks the snapshot what changed: new, changed and removed files found, no other stat', async () => {
    const { sb, home, dir, folder, paths } = await takenFolder(500);
    // A session that watched the folder: its catch-up walks every file once and keeps a snapshot.
    await watchedOnce(sb, home, folder.id);

    // While no Dubdesk runs: one new file, one changed, one removed.
    fs.writeFileSync(join(dir, 'new.mp4'), 'new\n');
    fs.appendFileSync(paths[1] ?? '', 'more\n');
    fs.rmSync(paths[2] ?? '');
    const calls = countFileCalls((p) => p.startsWith(dir));
    cleanup.push(calls.undo);
    const host = await restarted(sb, home, folder.id);
    // Without the snapshot every file was stat'ed again (500 here, 50,000 in the idle bench).
    expect(calls.stats(), 'stats at the restart').toBeLessThan(20);
    const files = await filesOf(host.api, folder.id);
    const at = (p: string) => files.filter((f) => f.path === p);
    expect(at(join(dir, 'new.mp4')).map((f) => f.status)).toEqual(['settling']);
    expect(
      at(paths[1] ?? '')
        .map((f) => f.version)
        .sort(),
    ).toEqual([1, 2]);
    expect(at(paths[2] ?? '').map((f) => f.gone)).toEqual([true]);
    expect(at(paths[3] ?? '').map((f) => f.gone)).toEqual([false]);
  });

  it("files a tool dated (whole-second mtimes) are stat'ed again at a restart, their rows not read one by one", async () => {
    const { sb, home, dir, folder, paths } = await takenFolder(200);
    // As unzip leaves them: every mtime a whole second, recorded so.
    const db = openDatabase(join(home, 'dubdesk.db'));
    const setMtime = db.prepare(`UPDATE watch_files SET mtime_ms = ? WHERE path = ?`);
    for (const [i, path] of paths.entries()) {
      const sec = 1_700_000_000 + i;
      fs.utimesSync(path, sec, sec);
      setMtime.run(sec * 1000, path);
    }
    db.close();
    await watchedOnce(sb, home, folder.id);

    const calls = countFileCalls((p) => p.startsWith(dir));
    cleanup.push(calls.undo);
    const rows = vi.spyOn(WatchFiles.prototype, 'current');
    cleanup.push(() => rows.mockRestore());
    await restarted(sb, home, folder.id);
    // The snapshot compares mtimes only: each such file is stat'ed (its size may have moved on the same
    // mtime), and only one that changed is looked at. Each was read twice from its row, parsed whole.
    expect(calls.stats(), 'stats at the restart').toBeGreaterThanOrEqual(paths.length);
    expect(rows.mock.calls.length, 'rows read one by one').toBe(0);
  });

  it('a data folder where no snapshot can be written: the folder is still watched, walked whole', async () => {
    const { sb, home, folder } = await takenFolder(20);
    // Where the snapshots go is a file: nothing can be written there.
    fs.writeFileSync(join(home, 'watch-snapshots'), 'not a folder\n');
    await restarted(sb, home, folder.id);
  });
});

/** A session that watched the folder, its queue paused, until it was caught up; then closed. */
async function watchedOnce(sb: Sandbox, home: string, folderId: number): Promise<void> {
  const host = watchEngine(sb, home);
  await host.api.pauseQueue();
  const run = running(host);
  await waitFor(
    'watched, caught up',
    () => folderOf(host.api, folderId),
    (f) => f.status === 'watching' && f.lastScanAt !== null,
  );
  await run.stop();
  await host.close();
}

/** An engine started again on `home`, its queue paused, once the folder is watched and caught up by it. */
async function restarted(sb: Sandbox, home: string, folderId: number) {
  const host = watchEngine(sb, home);
  cleanup.push(() => host.close());
  await host.api.pauseQueue();
  const run = running(host);
  cleanup.push(() => run.stop());
  const since = Date.now();
  await waitFor(
    'watched again, caught up',
    () => folderOf(host.api, folderId),
    (f) => f.status === 'watching' && f.lastScanAt !== null && Date.parse(f.lastScanAt) >= since,
  );
  return host;
}

/**
 * A recursive watched folder with `count` files in subfolders, each recorded as taken (as a previous
 * session left them), and the sandbox its engines use.
 */
async function takenFolder(count: number) {
  const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 100_000 });
  cleanup.push(() => sb.stop());
  const home = tempDir();
  const dir = tempDir('dubdesk-watch-');
  const first = watchEngine(sb, home);
  const folder = await addFolder(first.api, dir, { recursive: true });
  await first.close();
  const paths = takenFiles(home, folder.id, dir, count);
  return { sb, home, dir, folder, paths };
}

function takenFiles(home: string, folderId: number, dir: string, count: number): string[] {
  const db = openDatabase(join(home, 'dubdesk.db'));
  const now = Date.now();
  const insert = db.prepare(
    `INSERT INTO watch_files (folder_id, path, status, size, mtime_ms, hash, changed_at, wait_since,
       first_seen_at, taken_at, updated_at) VALUES (?, ?, 'taken', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const paths: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const sub = join(dir, `shoot-${i % 10}`);
      fs.mkdirSync(sub, { recursive: true });
      const path = join(sub, `clip-${i}.mp4`);
      fs.writeFileSync(path, `clip ${i}\n`);
      const s = fs.statSync(path);
      insert.run(
        folderId,
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
      paths.push(path);
    }
  })();
  db.close();
  return paths;
}
