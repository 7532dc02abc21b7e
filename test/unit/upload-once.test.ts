import { join } from 'node:path';
import { storeAt } from '../helpers/store';
import { describe, expect, it } from 'vitest';
import { type JobRow, type NewJob } from '../../electron/engine/db/jobs';
import { planUploadOnce } from '../../electron/engine/flows/upload-once';
import { takesPart, UPLOAD_ONCE_AUTO_BYTES } from '../../electron/engine/app/batches/upload-once';
import { enqueue, transition } from '../../electron/engine/jobs/life';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';

const job = (dest_lang: string, over: Partial<NewJob> = {}): NewJob =>
  newJob('/v/movie.mp4', { source_name: 'movie.mp4', source_bytes: 100, dest_lang, upload_once: 1, ...over });

function setup(langs: string[], over: Partial<NewJob> = {}) {
  const store = storeAt(join(tempDir(), 'q.db'));
  const ids = langs.map((l) => enqueue(store, job(l, over), null));
  const row = (id: number) => store.reads.get(id) as JobRow;
  const plan = (id: number) => planUploadOnce(row(id), store.reads.sameSource(row(id)));
  /** Moves a job as a worker would: claimed, uploading, created with a status. */
  const create = (id: number, status: number) => {
    const token = 'w';
    store.db.prepare(`UPDATE jobs SET lease_token = ? WHERE id = ?`).run(token, id);
    transition(store, id, { token }, { type: 'begin-upload' });
    transition(store, id, { token }, { type: 'created', remoteId: `d${id}`, status });
    store.leases.release(id, token);
  };
  return { store, ids, row, plan, create };
}

describe('upload once: who uploads, who waits, who is made from a link', () => {
  it('the first queued job of a file uploads; the later ones wait for it', () => {
    const { ids, plan } = setup(['es', 'fr', 'de']);
    const [a = 0, b = 0, c = 0] = ids;
    expect(plan(a)).toEqual({ kind: 'upload' });
    expect(plan(b)).toMatchObject({ kind: 'wait', on: { id: a } });
    expect(plan(c)).toMatchObject({ kind: 'wait', on: { id: a } });
    const p = plan(b);
    expect(p.kind === 'wait' && p.message).toMatch(
      /waiting for the first language's upload to finish \(job #1 → es\)/,
    );
  });

  it('waits while the first dub is in flight, and makes the others from it once it completed', () => {
    const { store, ids, plan, create } = setup(['es', 'fr']);
    const [a = 0, b = 0] = ids;
    create(a, 3);
    expect(plan(b)).toMatchObject({ kind: 'wait', on: { id: a } });
    transition(store, a, 'tracked', { type: 'remote-completed', measuredDuration: 3 });
    expect(plan(b)).toMatchObject({ kind: 'link', donors: [{ id: a, remote_id: `d${a}` }] });
  });

  it('a canceled, paused or failed first job carries nothing: the next one uploads', () => {
    for (const end of ['cancel', 'pause'] as const) {
      const { store, ids, plan } = setup(['es', 'fr', 'de']);
      const [a = 0, b = 0, c = 0] = ids;
      transition(store, a, 'user', { type: end });
      expect(plan(b)).toEqual({ kind: 'upload' });
      expect(plan(c)).toMatchObject({ kind: 'wait', on: { id: b } });
    }
    const { store, ids, plan, create } = setup(['es', 'fr']);
    create(ids[0] ?? 0, 3);
    transition(store, ids[0] ?? 0, 'tracked', { type: 'remote-failed', message: 'no' });
    expect(plan(ids[1] ?? 0)).toEqual({ kind: 'upload' });
  });

  it('the end of the first job wakes the waiting ones at once, in the same transaction', () => {
    const { store, ids } = setup(['es', 'fr']);
    const [a = 0, b = 0] = ids;
    store.db.prepare(`UPDATE jobs SET lease_token = 'w' WHERE id = ?`).run(b);
    transition(store, b, { token: 'w' }, { type: 'await-first-upload', message: 'waiting', runAt: 9e12 });
    store.leases.release(b, 'w');
    expect(store.reads.get(b)).toMatchObject({
      state: 'queued',
      waiting_code: 'first-upload',
      next_run_at: 9e12,
    });
    transition(store, a, 'user', { type: 'cancel' });
    expect(store.reads.get(b)).toMatchObject({ next_run_at: 0 });
  });

  it('another file, size or service is not the same file', () => {
    for (const over of [{ source_bytes: 101 }, { source_mtime: 2 }, { service: 'other' }]) {
      const { store, ids, plan } = setup(['es']);
      const other = enqueue(store, job('fr', { ...over }), null);
      expect(plan(other)).toEqual({ kind: 'upload' });
      expect(plan(ids[0] ?? 0)).toEqual({ kind: 'upload' });
    }
  });
});

describe('upload once: on or off', () => {
  it('auto: files from 50 MB going to more than one language, v2 only; true and false as said', () => {
    const big = UPLOAD_ONCE_AUTO_BYTES;
    expect(takesPart('auto', 'v2', big, 2)).toBe(true);
    expect(takesPart('auto', 'v2', big - 1, 5)).toBe(false);
    expect(takesPart('auto', 'v2', big, 1)).toBe(false);
    expect(takesPart('auto', 'v1', big, 5)).toBe(false);
    expect(takesPart(true, 'v2', 1, 1)).toBe(true);
    expect(takesPart(true, 'legacy', big, 5)).toBe(false);
    expect(takesPart(false, 'v2', big, 5)).toBe(false);
  });
});
