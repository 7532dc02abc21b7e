import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { logFile } from '../../../electron/engine/log/log';
import { startSandbox } from '../../../electron/sandbox/server';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3 } from '../../helpers/media';
import { addFolder, allCompleted, jobsOf, running, waitFor, watchEngine } from '../../helpers/watch';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

interface Line {
  level: number;
  time: number;
  msg: string;
  folder?: string;
  failures?: number;
  retryAt?: string;
}
const lines = async (home: string): Promise<Line[]> =>
  (await readFile(logFile(home), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

describe('a take that throws', () => {
  it('is logged with its folder, and the folder is taken from again once the cause is gone', async () => {
    const sb = await startSandbox({ pipelineSeconds: 0.2, balance: 100_000 });
    cleanup.push(() => sb.stop());
    const home = tempDir();
    const host = watchEngine(sb, home);
    cleanup.push(() => host.close());
    const dir = tempDir('dubdesk-watch-');
    const folder = await addFolder(host.api, dir, { to: ['es'] });
    const run = running(host);
    cleanup.push(() => run.stop());

    // A ready file whose record is damaged (a length that is not a number): reading the ready files throws.
    const db = new Database(join(home, 'dubdesk.db'));
    cleanup.push(async () => db.close());
    const now = Date.now();
    const damaged = db
      .prepare(
        `INSERT INTO watch_files (folder_id, path, status, size, mtime_ms, changed_at, wait_since, hash,
           duration, first_seen_at, updated_at) VALUES (?, ?, 'ready', 10, ?, ?, ?, 'abc', 'not a number', ?, ?)`,
      )
      .run(folder.id, join(dir, 'ghost.mp3'), now, now, now, now, now).lastInsertRowid;
    const failed = (ls: Line[]) => ls.filter((l) => l.msg === 'watcher take failed');
    const three = failed(
      await waitFor(
        'three failed takes in the log',
        () => lines(home),
        (ls) => failed(ls).length >= 3,
      ),
    );
    for (const l of three) expect(l).toMatchObject({ level: 40, folder: dir });
    expect(three.slice(0, 3).map((l) => l.failures)).toEqual([1, 2, 3]);
    // Each try waits for the time the one before it set: a cause that stays does not spin the loop.
    for (const [i, l] of three.slice(1, 3).entries())
      expect(l.time).toBeGreaterThanOrEqual(Date.parse(three[i]?.retryAt ?? ''));

    // Repaired: the folder's next file is taken as any other.
    db.prepare(`DELETE FROM watch_files WHERE id = ?`).run(damaged);
    await copyFile(audioMp3(1, 'take-after.mp3'), join(dir, 'after.mp3'));
    await waitFor('its job completed', () => jobsOf(host.api, folder.id), allCompleted(1));
  });
});
