/**
 * A job canceled while its create was under way: the poller finds the dub the service made. Found already
 * ended (completed: charged), the job must still be followed, so that the read the engine makes at once
 * records its end and its charge; an ended status on the row would keep it out of those reads for good.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueue, transition } from '../../electron/engine/jobs/life';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';
import { storeAt, type TestStore } from '../helpers/store';

/** A job canceled while its create was under way (its answer never came). */
function canceledMidCreate(): TestStore {
  const s = storeAt(join(tempDir(), 'q.db'));
  enqueue(s, newJob('/film.mp4', { dest_lang: 'es' }), null);
  const [claim] = s.leases.claim('submit', 1, 'svc');
  if (!claim) throw new Error('no claim');
  transition(s, 1, { token: claim.token }, { type: 'begin-upload' });
  s.db.prepare('UPDATE jobs SET create_pending = 1 WHERE id = 1').run();
  transition(s, 1, 'user', { type: 'cancel' });
  s.leases.release(1, claim.token);
  return s;
}

describe('a dub found made after its job was canceled', () => {
  it.each([
    ['in the queue', 2],
    ['completed (charged)', 5],
    ['failed', 4],
  ])('%s: the job is followed until a read records its end', (_, status) => {
    const s = canceledMidCreate();
    expect(s.canceledCreates.of('svc').map((r) => r.id)).toEqual([1]);
    transition(s, 1, 'after-cancel', { type: 'made-after-cancel', remoteId: 'dub-1', status });
    expect(s.leases.followed('svc').map((r) => r.id)).toEqual([1]);
    expect(s.reads.get(1)).toMatchObject({ state: 'canceled', remote_id: 'dub-1', credits_charged: null });

    transition(s, 1, 'followed', { type: 'followed-dub-ended', outcome: 'completed', measuredDuration: 3 });
    expect(s.reads.get(1)).toMatchObject({ credits_charged: 3 });
    expect(s.leases.followed('svc')).toEqual([]);
  });
});
