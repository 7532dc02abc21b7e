import Database from 'better-sqlite3';
import { storeAt, type TestStore } from '../helpers/store';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LeaseLostError, type NewJob } from '../../electron/engine/db/jobs';
import { SCHEMA_VERSION } from '../../electron/engine/db/migrations';
import { openDatabase } from '../../electron/engine/db/open';
import { enqueue, enqueueManyUnlessLive, transition } from '../../electron/engine/jobs/life';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';

const job = (source: string, dest_lang = 'es'): NewJob => newJob(source, { dest_lang });

function store(): TestStore {
  return storeAt(join(tempDir(), 'q.db'));
}

describe('the job database', () => {
  it('migrates a new file to the current version in WAL mode', () => {
    const file = join(tempDir(), 'q.db');
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    openDatabase(file).close(); // reopening is a no-op
  });

  it('a write transaction holds the write lock from its start: another process writing meanwhile waits, and ours never fails with SQLITE_BUSY', () => {
    const file = join(tempDir(), 'q.db');
    const s = storeAt(file);
    const other = new Database(file);
    other.pragma('busy_timeout = 0'); // refused at once instead of waiting: shows who holds the lock
    let otherWrite = 'not tried';
    s.tx(() => {
      s.db.prepare('SELECT count(*) FROM settings').get();
      try {
        other.prepare("INSERT INTO settings (key, value) VALUES ('theirs', '1')").run();
        otherWrite = 'written';
      } catch (e) {
        otherWrite = (e as { code?: string }).code ?? String(e);
      }
      // Deferred, this write would fail with SQLITE_BUSY: the other process wrote after this one read.
      s.db.prepare("INSERT INTO settings (key, value) VALUES ('ours', '2')").run();
    });
    expect(otherWrite).toBe('SQLITE_BUSY');
    expect(other.prepare('SELECT key FROM settings ORDER BY key').pluck().all()).toContain('ours');
    other.close();
  });

  it('migrates a version-1 database, keeping its jobs and turning their errors into contract codes', () => {
    const file = join(tempDir(), 'old.db');
    const raw = new Database(file);
    raw.exec(`CREATE TABLE jobs (id INTEGER PRIMARY KEY, source TEXT NOT NULL, source_kind TEXT NOT NULL, source_name TEXT NOT NULL,
      source_type TEXT, source_bytes INTEGER, duration REAL, dest_lang TEXT NOT NULL, source_lang TEXT NOT NULL, api TEXT NOT NULL,
      studio INTEGER NOT NULL DEFAULT 0, out_dir TEXT NOT NULL, outputs_wanted TEXT NOT NULL, state TEXT NOT NULL, step TEXT NOT NULL,
      remote_id TEXT, upload_url TEXT, upload_expires_at INTEGER, uploaded INTEGER NOT NULL DEFAULT 0, create_pending INTEGER NOT NULL DEFAULT 0,
      create_attempted_at INTEGER, abandoned_remote_ids TEXT NOT NULL DEFAULT '[]', remote_status INTEGER, progress REAL NOT NULL DEFAULT 0,
      waiting TEXT, error TEXT, error_kind TEXT, attempts INTEGER NOT NULL DEFAULT 0, next_run_at INTEGER NOT NULL DEFAULT 0,
      lease_token TEXT, lease_expires_at INTEGER, measured_duration REAL, credits_charged INTEGER, created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL, completed_at INTEGER);
      CREATE TABLE outputs (job_id INTEGER NOT NULL, type TEXT NOT NULL, path TEXT NOT NULL, bytes INTEGER, done INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (job_id, type));
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO jobs (source, source_kind, source_name, dest_lang, source_lang, api, out_dir, outputs_wanted, state, step, error, error_kind, created_at, updated_at)
        VALUES ('/a.mp4', 'file', 'a.mp4', 'es', 'auto', 'v2', '/o', '"default"', 'failed', 'submit', 'bad', 'input', 1, 1);`);
    raw.pragma('user_version = 1');
    raw.close();
    const s = storeAt(file);
    expect(s.reads.get(1)).toMatchObject({ state: 'failed', error_code: 'not-media', service: '' });
    expect(s.history.of(1)).toEqual([expect.objectContaining({ event: 'migrated', to_state: 'failed' })]);
  });

  it('refuses a database written by a newer Dubdesk, naming the file', () => {
    const file = join(tempDir(), 'newer.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(`${file} was written by a newer version of Dubdesk`);
  });

  it('claims due jobs under a token that only its holder may write through', () => {
    const s = store();
    for (const src of ['/a.mp4', '/b.mp4', '/c.mp4']) enqueue(s, job(src), null);
    const claimed = s.leases.claim('submit', 10, 'svc');
    expect(claimed.map((c) => c.row.id)).toEqual([1, 2, 3]);
    expect(s.leases.claim('submit', 10, 'svc')).toEqual([]); // held
    const [a] = claimed;
    if (!a) throw new Error('no claim');
    transition(s, 1, { token: a.token }, { type: 'begin-upload' });
    expect(() => transition(s, 1, { token: 'someone-else' }, { type: 'interrupted' })).toThrow(
      LeaseLostError,
    );
    // A user action takes the token away; the worker's next write then fails.
    transition(s, 1, 'user', { type: 'cancel' });
    expect(() => s.writes.record(1, { token: a.token }, { uploaded: 1 })).toThrow(LeaseLostError);
    expect(s.reads.get(1)?.state).toBe('canceled');
  });

  it('never claims jobs of another service, nor paused ones', () => {
    const s = store();
    enqueue(s, job('/a.mp4'), null);
    enqueue(s, { ...job('/b.mp4'), service: 'other' }, null);
    enqueue(s, job('/c.mp4'), null);
    transition(s, 3, 'user', { type: 'pause' });
    expect(s.leases.claim('submit', 10, 'svc').map((c) => c.row.id)).toEqual([1]);
  });

  it('lets the poller write only to jobs still tracked, so a cancel is never undone by a late poll', () => {
    const s = store();
    for (const [i, src] of ['/a.mp4', '/b.mp4'].entries()) {
      enqueue(s, job(src), null);
      const [c] = s.leases.claim('submit', 1, 'svc');
      if (!c) throw new Error('no claim');
      transition(s, i + 1, { token: c.token }, { type: 'begin-upload' });
      transition(s, i + 1, { token: c.token }, { type: 'created', remoteId: `r${i}`, status: 2 });
      s.leases.release(i + 1, c.token);
    }
    transition(s, 1, 'tracked', { type: 'remote-progress', status: 3, progress: 40 });
    expect(s.reads.get(1)).toMatchObject({ state: 'processing', progress: 40 });
    transition(s, 2, 'user', { type: 'cancel' });
    expect(() => transition(s, 2, 'tracked', { type: 'remote-progress', status: 3, progress: 1 })).toThrow(
      LeaseLostError,
    );
    expect(s.reads.get(2)?.state).toBe('canceled');
    expect(s.history.of(1).map((h) => h.to_state)).toEqual([
      'queued',
      'uploading',
      'submitted',
      'processing',
    ]);
  });

  it('claims as many as asked, soonest first, beyond one read batch (the CLI allows any concurrency)', () => {
    const s = store();
    for (let i = 0; i < 40; i++) enqueue(s, job(`/${i}.mp4`), null);
    expect(s.leases.claim('submit', 3, 'svc').map((c) => c.row.id)).toEqual([1, 2, 3]);
    expect(s.leases.claim('submit', 30, 'svc').map((c) => c.row.id)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 4),
    );
    expect(s.leases.claim('submit', 30, 'svc')).toHaveLength(7);
    expect(s.leases.claim('fetch', 30, 'svc')).toEqual([]);
  });

  it('lists outputs in the order they were first recorded, whatever their type is called', () => {
    const s = store();
    enqueue(s, job('/a.mp4'), null);
    for (const type of ['translated_subtitle', 'translated_mp4', 'poster'])
      s.outputs.put({ job_id: 1, type, path: `/o/${type}`, bytes: null, done: 0 });
    s.outputs.put({ job_id: 1, type: 'translated_subtitle', path: '/o/renamed', bytes: 5, done: 1 });
    expect(s.outputs.of(1).map((o) => o.type)).toEqual(['translated_subtitle', 'translated_mp4', 'poster']);
    expect(
      s.outputs
        .ofJobs([1])
        .get(1)
        ?.map((o) => o.path),
    ).toEqual(['/o/renamed', '/o/translated_mp4', '/o/poster']);
  });

  it('queues many jobs in a few statements: each gets its id in order, its history, and null where a live job is there already', () => {
    const s = store();
    const before = enqueue(s, job('/a.mp4', 'fr'), null);
    const jobs = Array.from({ length: 130 }, (_, i) => job(`/m${i % 65}.mp4`, i < 65 ? 'es' : 'de'));
    // Already live: one in the queue before, one twice in the same batch (the second is the duplicate).
    jobs.splice(70, 0, job('/a.mp4', 'fr'), job('/m3.mp4', 'es'));
    const ids = s.tx(() => enqueueManyUnlessLive(s, jobs, 1000, false));
    expect(ids).toHaveLength(jobs.length);
    expect(ids[70]).toBeNull();
    expect(ids[71]).toBeNull();
    const added = ids.filter((id): id is number => id !== null);
    expect(added).toHaveLength(130);
    expect(added).toEqual([...added].sort((a, b) => a - b));
    expect(added[0]).toBeGreaterThan(before);
    jobs.forEach((j, i) => {
      const id = ids[i];
      if (id === null || id === undefined) return;
      expect(s.reads.get(id)).toMatchObject({
        source: j.source,
        dest_lang: j.dest_lang,
        state: 'queued',
        created_at: 1000,
      });
      expect(s.history.of(id)).toEqual([
        { at: 1000, from_state: null, to_state: 'queued', event: 'added', reason: null },
      ]);
    });
    expect(s.lists.countsByState().queued).toBe(131);
    s.db.close();
  });

  it('refuses to let anything but the job life write the state', () => {
    const s = store();
    enqueue(s, job('/a.mp4'), null);
    expect(() => s.writes.record(1, 'user', { state: 'completed' } as never)).toThrow(
      /written by the job's life only/,
    );
  });
});

describe('the language list', () => {
  it('is fetched live, then served from the cache, and falls back to the spec’s 92 codes offline', async () => {
    const { targetLanguages } = await import('../../electron/engine/api/langs');
    const { startSandbox } = await import('../../electron/sandbox/server');
    const s = store();
    const offline = await targetLanguages(s.settings, 'http://127.0.0.1:9');
    expect(offline).toMatchObject({ from: 'fallback' });
    expect(offline.codes).toHaveLength(92);
    const sb = await startSandbox();
    try {
      expect((await targetLanguages(s.settings, sb.baseUrl)).from).toBe('live');
      expect((await targetLanguages(s.settings, sb.baseUrl)).from).toBe('cache');
      const dayLater = Date.now() + 25 * 3600_000;
      expect((await targetLanguages(s.settings, sb.baseUrl, dayLater)).from).toBe('live');
    } finally {
      await sb.stop();
    }
    expect((await targetLanguages(s.settings, 'http://127.0.0.1:9', Date.now() + 72 * 3600_000)).from).toBe(
      'cache',
    );
  });
});
