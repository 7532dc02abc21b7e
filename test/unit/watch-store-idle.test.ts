import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WatchPresetSchema } from '../../shared/contract/watch';
import { openDatabase } from '../../electron/engine/db/open';
import { WatchStore } from '../../electron/engine/db/watch';
import { tempDir } from '../helpers/engine';

/** A watch store over a real file whose every statement run is recorded, to be explained afterwards. */
function recordingWatch(home: string) {
  const db = openDatabase(join(home, 'dubdesk.db'));
  const prepare = db.prepare.bind(db);
  const ran: { sql: string; args: unknown[] }[] = [];
  (db as { prepare: (sql: string) => Database.Statement }).prepare = (sql: string) => {
    const st = prepare(sql);
    for (const m of ['all', 'get', 'run'] as const) {
      const f = st[m].bind(st) as (...a: unknown[]) => unknown;
      (st as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => {
        ran.push({ sql, args });
        return f(...args);
      };
    }
    return st;
  };
  const plans = () =>
    ran.map(({ sql, args }) => ({
      sql,
      plan: (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail),
    }));
  return { watch: new WatchStore(db), ran, plans };
}

/**
 * Whether a statement walks every file of a folder (or of all folders): a scan, or an index searched by
 * the folder alone. A folder of 10,000 taken files made each idle turn of the watcher read them all.
 */
const readsAllFiles = (plan: string[]) =>
  plan.some((d) => /^SCAN watch_files\b/.test(d) || /^SEARCH watch_files .*\(folder_id=\?\)$/.test(d));

describe('an idle watcher over big folders', () => {
  it("each turn's questions (anything ready, due or settling?) walk no folder's whole file list", () => {
    const home = tempDir();
    const { watch, ran, plans } = recordingWatch(home);
    const now = Date.now();
    const folder = watch.insertFolder(tempDir(), WatchPresetSchema.parse({ to: ['es'] }), now);
    const taken = watch.db.prepare(
      `INSERT INTO watch_files (folder_id, path, status, size, mtime_ms, changed_at, wait_since, first_seen_at,
         taken_at, updated_at) VALUES (?, ?, 'taken', 1, 1, ?, ?, ?, ?, ?)`,
    );
    watch.db.transaction(() => {
      for (let i = 0; i < 2000; i++) taken.run(folder, `/w/${i}.mp4`, now, now, now, now, now);
    })();
    ran.length = 0;
    watch.hasStatus(folder, 'ready');
    watch.withStatus(folder, 'ready', 2000);
    watch.due(folder, now, 500);
    watch.nextCheckAt(folder);
    const explained = plans();
    expect(explained.length).toBe(4);
    for (const { sql, plan } of explained)
      expect(readsAllFiles(plan), `${sql}\n${plan.join('\n')}`).toBe(false);
    watch.db.close();
  });
});
