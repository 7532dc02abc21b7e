/**
 * `abandoned_remote_ids` (the dubs a job never adopts again) is JSON in a column of a file on disk: it is
 * parsed with its schema where rows are read, so a damaged cell neither stops a retry nor lets through
 * what is not an id.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueue, transition } from '../../electron/engine/jobs/life';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';
import { storeAt, type TestStore } from '../helpers/store';

/** A job whose dub `dub-2` failed on the service, with its abandoned ids cell set to `cell` on disk. */
function failedDub(cell: string): TestStore {
  const s = storeAt(join(tempDir(), 'q.db'));
  enqueue(s, newJob('/film.mp4', { dest_lang: 'es' }), null);
  const [claim] = s.leases.claim('submit', 1, 'svc');
  if (!claim) throw new Error('no claim');
  transition(s, 1, { token: claim.token }, { type: 'begin-upload' });
  transition(s, 1, { token: claim.token }, { type: 'created', remoteId: 'dub-2', status: 2 });
  s.leases.release(1, claim.token);
  transition(s, 1, 'tracked', { type: 'remote-failed', message: 'the pipeline failed' });
  s.db.prepare('UPDATE jobs SET abandoned_remote_ids = ? WHERE id = 1').run(cell);
  return s;
}

describe('the dubs a job abandoned, as read from its row', () => {
  it('are a list of ids, and a retry adds the failed dub to them', () => {
    const s = failedDub('["dub-1"]');
    expect(s.reads.get(1)?.abandoned_remote_ids).toEqual(['dub-1']);
    transition(s, 1, 'user', { type: 'retry' });
    expect(s.reads.get(1)?.abandoned_remote_ids).toEqual(['dub-1', 'dub-2']);
    expect(s.db.prepare('SELECT abandoned_remote_ids FROM jobs').pluck().get()).toBe('["dub-1","dub-2"]');
  });

  it.each([
    ['not JSON at all', '{"dub-1', []],
    ['JSON but no list', '{"dub-1": true}', []],
    ['a list holding what is not an id', '["dub-1", 7, null]', ['dub-1']],
  ])('damaged (%s): read as the ids it still names, and a retry works', (_what, cell, named) => {
    const s = failedDub(cell);
    expect(s.reads.get(1)?.abandoned_remote_ids).toEqual(named);
    transition(s, 1, 'user', { type: 'retry' });
    expect(s.reads.get(1)).toMatchObject({ state: 'queued', abandoned_remote_ids: [...named, 'dub-2'] });
  });
});
