import { join } from 'node:path';
import { storeAt } from '../helpers/store';
import { expect, it } from 'vitest';
import { enqueue } from '../../electron/engine/jobs/life';
import { ApiError } from '../../electron/engine/api/errors';
import { pollOnce } from '../../electron/engine/flows/track';
import type { Clients } from '../../electron/engine/flows/context';
import { tempDir } from '../helpers/temp-dir';
import { newJob } from '../helpers/new-job';

it('a tracked dub whose check fails (5xx) does not hold back what the poll saw of the others', async () => {
  const store = storeAt(join(tempDir(), 'q.db'));
  const a = enqueue(store, newJob('/a.mp4'), null);
  const b = enqueue(store, newJob('/b.mp4'), null);
  store.db
    .prepare(
      `UPDATE jobs SET state = 'processing', step = 'track', remote_id = 'dub-' || id, remote_status = 3 WHERE id IN (?, ?)`,
    )
    .run(a, b);
  const dub = (id: string) => ({
    id,
    external_status_id: 5,
    progress_percentage: 100,
    external_error_message: null,
    measured_duration: 3,
    dest_lang: 'es',
  });
  const clients = {
    v2: {
      // Job a's dub is completed; job b's is not in the list, and asking for it fails with a 502.
      list: async () => ({ dubs: [dub(`dub-${a}`)], pagination: { total_pages: 1 }, refused: [] }),
      get: async () => {
        throw new ApiError('server', 'bad gateway', 502);
      },
    },
  } as unknown as Clients;
  const polled = await pollOnce(store, clients, 'svc', new AbortController().signal);
  // Job a's completion is recorded; job b waits for the next poll, and the failure is reported.
  expect(store.reads.get(a)?.state).toBe('downloading');
  expect(polled.changed.map((r) => r.id)).toEqual([a]);
  expect(store.reads.get(b)?.state).toBe('processing');
  expect(String(polled.failure)).toContain('bad gateway');
});
