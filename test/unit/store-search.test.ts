import Database from 'better-sqlite3';
import { storeAt, type TestStore } from '../helpers/store';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobStore } from '../../electron/engine/db/jobs';
import { migrate, SCHEMA_VERSION } from '../../electron/engine/db/migrations';
import { enqueue, transition } from '../../electron/engine/jobs/life';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';
import { seedQueue } from '../helpers/seed';

const LANGS = ['es', 'fr', 'de', 'it', 'pt'];

const ids = (store: JobStore, search: string, history = false) =>
  store.lists.page({ search, history }, 0, 1000).rows.map((r) => r.id);
const brute = (store: TestStore, text: string) =>
  store.db
    .prepare(
      `SELECT id FROM jobs WHERE (source_name LIKE @t OR source LIKE @t) AND cleared_at IS NULL ORDER BY id`,
    )
    .pluck()
    .all({ t: `%${text}%` });

describe('search', () => {
  it('keeps one index entry per source, not one per job (a source goes to several languages)', () => {
    const home = tempDir();
    seedQueue(home, 30, LANGS);
    const store = storeAt(join(home, 'dubdesk.db'));
    expect(store.db.prepare(`SELECT count(*) FROM search_sources`).pluck().get()).toBe(30);
    store.db.close();
  });

  it('finds jobs by name and by path, and forgets a source once its last job is gone', () => {
    const store = storeAt(join(tempDir(), 'dubdesk.db'));
    const a = LANGS.map((l) =>
      enqueue(store, newJob('/shows/season one/intro.mp4', { dest_lang: l, source_name: 'intro.mp4' }), null),
    );
    // A watched file taken after it moved: the same source under another name.
    const moved = enqueue(
      store,
      newJob('/shows/season one/intro.mp4', { dest_lang: 'ja', source_name: 'opening.mp4' }),
      null,
    );
    const b = enqueue(store, newJob('/shows/other/finale.mov', { source_name: 'finale.mov' }), null);
    expect(ids(store, 'intro')).toEqual([...a, moved]); // its path has the name
    expect(ids(store, 'opening')).toEqual([moved]);
    expect(ids(store, 'season one')).toEqual([...a, moved]);
    expect(ids(store, 'FINALE')).toEqual([b]);
    expect(ids(store, 'shows/')).toEqual(brute(store, 'shows/'));
    // Canceled and removed: the name is searched no more.
    transition(store, b, 'user', { type: 'cancel' });
    store.writes.remove([b]);
    expect(ids(store, 'finale')).toEqual([]);
    expect(store.db.prepare(`SELECT source_name FROM search_sources ORDER BY id`).pluck().all()).toEqual([
      'intro.mp4',
      'opening.mp4',
    ]);
    store.db.close();
  });

  it('a database from before (one index entry per job) is upgraded: what was there is found, by name and path, live and in the history', () => {
    const file = join(tempDir(), 'dubdesk.db');
    const old = new Database(file);
    migrate(old, file, SCHEMA_VERSION - 1);
    const cols = Object.keys(newJob('x'));
    const insert = old.prepare(
      `INSERT INTO jobs (${cols.join(', ')}, state, step, created_at, updated_at, cleared_at)
         VALUES (${cols.map((c) => `@${c}`).join(', ')}, 'completed', 'done', 1, 1, @cleared)`,
    );
    for (let i = 0; i < 12; i++)
      for (const dest_lang of LANGS.slice(0, 3))
        insert.run({
          ...newJob(`/archive/reel ${i}.mp4`, { dest_lang, source_name: `reel ${i}.mp4` }),
          cleared: i % 4 === 0 ? 5 : null,
        });
    old.close();
    const store = storeAt(file);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(
      store.db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'job_search'`).pluck().get(),
    ).toBe(0);
    expect(store.db.prepare(`SELECT count(*) FROM search_sources`).pluck().get()).toBe(12);
    expect(ids(store, 'reel 1')).toEqual(brute(store, 'reel 1'));
    expect(ids(store, 'reel 1')).toHaveLength(3 * 3); // reel 1, 10 and 11
    expect(ids(store, '/archive/')).toHaveLength(9 * 3);
    expect(ids(store, 'reel 8', true)).toHaveLength(3);
    store.db.close();
  });
});
