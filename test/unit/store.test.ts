import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobStore, LeaseLostError, type NewJob } from '../../electron/engine/db/jobs';
import { SCHEMA_VERSION } from '../../electron/engine/db/migrations';
import { openDatabase } from '../../electron/engine/db/open';
import { tempDir } from '../helpers/engine';

const job = (source: string, dest_lang = 'es'): NewJob => ({
  source,
  source_kind: 'file',
  source_name: source,
  source_type: 'video/mp4',
  source_bytes: 10,
  duration: 3,
  dest_lang,
  source_lang: 'auto',
  api: 'v2',
  studio: 0,
  out_dir: '/tmp',
  outputs_wanted: '"default"',
});

describe('the job database', () => {
  it('migrates a new file to the current version in WAL mode', () => {
    const file = join(tempDir(), 'q.db');
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    openDatabase(file).close(); // reopening is a no-op
  });

  it('refuses a database written by a newer Dubdesk, naming the file', () => {
    const file = join(tempDir(), 'newer.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(`${file} was written by a newer version of Dubdesk`);
  });

  it('adds one job per source and language while one is live', () => {
    const store = new JobStore(openDatabase(join(tempDir(), 'q.db')));
    const first = store.add([job('/a.mp4'), job('/a.mp4', 'fr'), job('/b.mp4')]);
    expect(first.added).toHaveLength(3);
    expect(store.add([job('/a.mp4'), job('/c.mp4')])).toEqual({ added: [4], existing: [1], failed: [] });
    store.force(1, { state: 'failed', error: 'x' });
    expect(store.add([job('/a.mp4')])).toEqual({ added: [], existing: [], failed: [1] });
    store.force(1, { state: 'canceled' });
    expect(store.add([job('/a.mp4')]).added).toEqual([5]);
  });

  it('claims due jobs under a lease that only its holder may write through', () => {
    const store = new JobStore(openDatabase(join(tempDir(), 'q.db')));
    store.add([job('/a.mp4'), job('/b.mp4'), job('/c.mp4')]);
    store.patch(3, null, { next_run_at: Date.now() + 60_000 });
    const claimed = store.claim('submit', 10, 30_000);
    expect(claimed.map((c) => c.row.id)).toEqual([1, 2]);
    expect(store.claim('submit', 10, 30_000)).toEqual([]); // held
    const [a] = claimed;
    if (!a) throw new Error('no claim');
    store.patch(1, a.token, { state: 'uploading' });
    expect(() => store.patch(1, 'someone-else', { state: 'queued' })).toThrow(LeaseLostError);
    // A user action takes the lease away; the worker's next write then fails.
    store.force(1, { state: 'canceled' });
    expect(() => store.patch(1, a.token, { state: 'submitted' })).toThrow(LeaseLostError);
    expect(store.get(1)?.state).toBe('canceled');
  });

  it('lets the poller write only to jobs still tracked, so a cancel is never undone by a late poll', () => {
    const store = new JobStore(openDatabase(join(tempDir(), 'q.db')));
    store.add([job('/a.mp4'), job('/b.mp4')]);
    store.force(1, { step: 'track', state: 'submitted', remote_id: 'r1' });
    store.force(2, { step: 'track', state: 'submitted', remote_id: 'r2' });
    store.patchTracked(1, { state: 'processing', progress: 40 });
    expect(store.get(1)).toMatchObject({ state: 'processing', progress: 40 });
    store.force(2, { state: 'canceled' });
    expect(() => store.patchTracked(2, { state: 'processing' })).toThrow(LeaseLostError);
    expect(store.get(2)?.state).toBe('canceled');
  });

  it('frees lapsed leases, or all of them for the runner that holds the run lock', () => {
    const store = new JobStore(openDatabase(join(tempDir(), 'q.db')));
    store.add([job('/a.mp4'), job('/b.mp4')]);
    store.claim('submit', 1, -1); // already lapsed
    store.claim('submit', 1, 60_000);
    expect(store.resetLeases(false)).toBe(1);
    expect(store.resetLeases(true)).toBe(1);
    expect(store.claim('submit', 10, 60_000)).toHaveLength(2);
  });
});

describe('the language list', () => {
  it('is fetched live, then served from the cache, and falls back to the spec’s 92 codes offline', async () => {
    const { targetLanguages } = await import('../../electron/engine/api/langs');
    const { startSandbox } = await import('../../electron/sandbox/server');
    const store = new JobStore(openDatabase(join(tempDir(), 'q.db')));
    const offline = await targetLanguages(store, 'http://127.0.0.1:9');
    expect(offline).toMatchObject({ from: 'fallback' });
    expect(offline.codes).toHaveLength(92);
    const sb = await startSandbox();
    try {
      expect((await targetLanguages(store, sb.baseUrl)).from).toBe('live');
      expect((await targetLanguages(store, sb.baseUrl)).from).toBe('cache');
      const dayLater = Date.now() + 25 * 3600_000;
      expect((await targetLanguages(store, sb.baseUrl, dayLater)).from).toBe('live');
    } finally {
      await sb.stop();
    }
    expect((await targetLanguages(store, 'http://127.0.0.1:9', Date.now() + 72 * 3600_000)).from).toBe(
      'cache',
    );
  });
});
