/**
 * An add's many-row insert places its jobs in the queue's order itself instead of leaving it to the
 * `jobs_insert_order` trigger (half the insert's CPU): the places, and each live source's position in the
 * list, are what one job at a time through the trigger gives, with jobs already queued, a job the insert
 * skips (its source and language is live already), and a source that gains a language.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enqueue, enqueueManyUnlessLive } from '../../electron/engine/jobs/life';
import type { NewJob } from '../../electron/engine/db/jobs';
import { newJob } from '../helpers/new-job';
import { storeAt } from '../helpers/store';
import { tempDir } from '../helpers/temp-dir';

const before = [newJob('/v/a.mp4'), newJob('/v/b.mp4', { dest_lang: 'fr' })];
const batch: NewJob[] = [
  newJob('/v/c.mp4'),
  newJob('/v/a.mp4'), // live already: skipped
  newJob('/v/b.mp4'), // a second language of a live source
  newJob('/v/c.mp4', { dest_lang: 'fr' }),
  newJob('/v/d.mp4'),
];

/** The queue after `before` one at a time and `batch` by `add`: each job's place, each source's position. */
function queueAfter(add: (store: ReturnType<typeof storeAt>, jobs: NewJob[]) => void) {
  const store = storeAt(join(tempDir(), 'dubdesk.db'));
  for (const j of before) enqueue(store, j, null, 1);
  add(store, batch);
  const places = store.db
    .prepare('SELECT source, dest_lang, queue_order FROM jobs ORDER BY queue_order')
    .all();
  const positions = store.db.prepare('SELECT source, first_order FROM live_sources ORDER BY source').all();
  store.db.close();
  return { places, positions };
}

describe('the queue order of jobs added many at once', () => {
  it('is the order one job at a time through the trigger gives, sources placed where their first job is', () => {
    const oneByOne = queueAfter((store, jobs) => {
      for (const j of jobs) if (!store.reads.live(j.source, j.dest_lang)) enqueue(store, j, null, 2);
    });
    const many = queueAfter((store, jobs) => enqueueManyUnlessLive(store, jobs, 2, false));
    expect(many.places.map((p) => Object.values(p as object).slice(0, 2))).toEqual(
      oneByOne.places.map((p) => Object.values(p as object).slice(0, 2)),
    );
    // Places are relative: the batch's skipped job may leave a gap, the order is the same.
    expect(many.positions.map((p) => (p as { source: string }).source)).toEqual(
      oneByOne.positions.map((p) => (p as { source: string }).source),
    );
    const rank = (rows: unknown[]) => {
      const orders = rows.map((r) => (r as { first_order: number }).first_order);
      return orders.map((o) => [...orders].sort((a, b) => a - b).indexOf(o));
    };
    expect(rank(many.positions)).toEqual(rank(oneByOne.positions));
    const placesOf = (rows: unknown[]) => rows.map((r) => (r as { queue_order: number }).queue_order);
    expect(new Set(placesOf(many.places)).size).toBe(many.places.length);
  });
});
