/**
 * A big add places its jobs in the queue's order (smallest first, a window at a time) and marks them one batch
 * in slices, the event loop's turn between: in one transaction, 100,000 jobs held it for 1.5 s, and a face,
 * a watched folder and the uploads stood still meanwhile.
 */
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { sortAgainstQueue } from '../../electron/engine/app/batches/against-queue';
import { enqueueBatch } from '../../electron/engine/app/batches/enqueue';
import { TimeSlices } from '../../electron/engine/app/time-slices';
import { SMALL_FIRST_WINDOW } from '../../electron/engine/db/job-store/due';
import { newJob } from '../helpers/new-job';
import { storeAt } from '../helpers/store';
import { tempDir } from '../helpers/temp-dir';

describe('placing a big batch in the queue', () => {
  it('orders and tags it a window at a time, each window smallest first, all of it one batch', async () => {
    const store = storeAt(join(tempDir(), 'dubdesk.db'));
    const files = 3 * SMALL_FIRST_WINDOW + 17;
    // Sizes that fall as the batch goes on: each window is reordered, and the last one is partly full.
    const jobs = Array.from({ length: files }, (_, i) =>
      newJob(`/v/clip ${i}.mp4`, {
        source_bytes: 1_000_000 - i * 7,
        source_hash: String(i).padStart(64, '0'),
      }),
    );
    const sorted = await sortAgainstQueue(store, jobs, false);
    const tagged = store.db.prepare('SELECT count(*) FROM jobs WHERE batch_id IS NOT NULL').pluck();
    const seen: number[] = [];
    let done = false;
    // Every slice is due at once: the event loop gets a turn after each write, and this looks in each turn.
    const adding = enqueueBatch(store, sorted, false, new TimeSlices(0)).finally(() => (done = true));
    while (!done) {
      seen.push(tagged.get() as number);
      await turn();
    }
    const { added } = await adding;
    expect(added).toHaveLength(files);
    expect(
      seen.some((n) => n > 0 && n < files),
      `jobs tagged, turn by turn: ${seen.join(' ')}`,
    ).toBe(true);
    const rows = store.db
      .prepare('SELECT id, source_bytes AS bytes, batch_id AS batch FROM jobs ORDER BY queue_order')
      .all() as { id: number; bytes: number; batch: number }[];
    expect(new Set(rows.map((r) => r.batch)).size).toBe(1);
    for (let at = 0; at < rows.length; at += SMALL_FIRST_WINDOW) {
      const window = rows.slice(at, at + SMALL_FIRST_WINDOW);
      expect(window.map((r) => r.bytes)).toEqual(window.map((r) => r.bytes).sort((a, b) => a - b));
      // The window holds the jobs given in that window of the batch: sorted within it, not across it.
      expect(window.map((r) => r.id).sort((a, b) => a - b)).toEqual(added.slice(at, at + SMALL_FIRST_WINDOW));
    }
    store.db.close();
  });
});
