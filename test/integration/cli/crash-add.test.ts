/**
 * kill -9 in the middle of a big add. The add writes its jobs in transactions of whole windows of the
 * queue's order (each job with its 'added' history, its place and its batch), and holds the WAL's
 * checkpoints and the search index's merges meanwhile: what the kill leaves is a database that checks
 * whole, holding whole windows of the batch, and adding the folder again adds the rest, each job once.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { SMALL_FIRST_WINDOW } from '../../../electron/engine/db/job-store/due';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { videoMp4 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const FILES = 2_000;
const LANGS = ['es', 'fr'];

/** `n` clips, each its own content: one clip with its number in a trailing MP4 `free` box. */
function folderOfClips(under: string, n: number): string {
  const dir = join(under, 'clips');
  mkdirSync(dir, { recursive: true });
  const clip = readFileSync(videoMp4(1, 'crash-add-1s.mp4'));
  for (let i = 0; i < n; i++) {
    const free = Buffer.alloc(16);
    free.writeUInt32BE(16, 0);
    free.write('free', 4, 'latin1');
    free.writeUInt32BE(i, 8);
    writeFileSync(join(dir, `clip-${String(i).padStart(5, '0')}.mp4`), Buffer.concat([clip, free]));
  }
  return dir;
}

/** The jobs committed so far, read from another connection (0 before the database has its tables). */
function jobsIn(file: string): number {
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM jobs').pluck().get() as number;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

describe('kill -9 during a big add', () => {
  it('leaves whole windows of the batch, and adding it again adds the rest once', async () => {
    const s = await startSandbox({ pipelineSeconds: 100_000, balance: 1e9 });
    sb = s;
    const work = tempDir('dubdesk-crash-add-');
    const folder = folderOfClips(work, FILES);
    const total = FILES * LANGS.length;
    const add = ['add', folder, '--to', LANGS.join(','), '--out', join(work, 'out'), '--force'];

    let home = '';
    let left = 0;
    for (let attempt = 0; attempt < 3 && left === 0; attempt++) {
      home = join(work, `home-${attempt}`);
      const file = join(home, 'dubdesk.db');
      const { child, done } = startCli(add, envFor(s, home));
      let over = false;
      void done.then(() => (over = true));
      while (!over) {
        const n = jobsIn(file);
        if (n > 0 && n < total) {
          child.kill('SIGKILL');
          break;
        }
        await sleep(5); // the scenario: look again in a moment
      }
      const ended = await done;
      if (ended.signal === 'SIGKILL') left = jobsIn(file);
    }
    expect(left, 'a kill landed while the add was writing its jobs').toBeGreaterThan(0);
    expect(left).toBeLessThan(total);

    const db = new Database(join(home, 'dubdesk.db'));
    const firstAndLast: { source_name: string; n: number }[] = [];
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(left % SMALL_FIRST_WINDOW, `${left} jobs are whole windows`).toBe(0);
      const history = db.prepare(`SELECT count(*) FROM job_history WHERE event = 'added'`).pluck();
      expect(history.get()).toBe(left);
      const batches = db.prepare('SELECT count(DISTINCT batch_id) FROM jobs WHERE batch_id IS NOT NULL');
      expect(batches.pluck().get()).toBe(1);
      // The search index checks whole too; the add held its merges (automerge 0 stays, see SearchMerges).
      db.prepare(`INSERT INTO source_search (source_search) VALUES ('integrity-check')`).run();
      expect(db.prepare(`SELECT v FROM source_search_config WHERE k = 'automerge'`).pluck().get()).toBe(0);
      // A file of the first window the kill left, and one of its last.
      const named = `SELECT source_name, (SELECT count(*) FROM jobs j WHERE j.source = jobs.source) AS n FROM jobs`;
      for (const order of ['', 'DESC'])
        firstAndLast.push(
          db.prepare(`${named} ORDER BY id ${order} LIMIT 1`).get() as { source_name: string; n: number },
        );
    } finally {
      db.close();
    }

    // The search works before any add ends (the index's merges are still held: automerge 0).
    for (const { source_name, n } of firstAndLast) {
      const found = await runCli(['status', '--search', source_name, '--json'], envFor(s, home));
      expect(found.code, found.stderr).toBe(0);
      const names = (JSON.parse(found.stdout) as { jobs: { sourceName: string }[] }).jobs.map(
        (j) => j.sourceName,
      );
      expect(names, `searching ${source_name} after the kill`).toEqual(Array(n).fill(source_name));
    }

    const again = await runCli(add, envFor(s, home));
    expect(again.code, again.stderr).toBe(0);
    const after = new Database(join(home, 'dubdesk.db'), { readonly: true });
    try {
      expect(after.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(total);
      const pairs = after.prepare('SELECT count(DISTINCT source || dest_lang) FROM jobs').pluck().get();
      expect(pairs).toBe(total);
      const history = after.prepare(`SELECT count(*) FROM job_history WHERE event = 'added'`).pluck();
      expect(history.get()).toBe(total);
      const automerge = after.prepare(`SELECT v FROM source_search_config WHERE k = 'automerge'`);
      expect(automerge.pluck().get(), 'the search index merges as it writes again').toBe(4);
    } finally {
      after.close();
    }
  }, 240_000);
});
