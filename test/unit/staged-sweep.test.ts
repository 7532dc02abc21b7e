import { describe, expect, it } from 'vitest';
import { storeOn } from '../helpers/store';
import { recordingDb } from '../helpers/recording-db';
import { seedQueue } from '../helpers/seed';
import { tempDir } from '../helpers/temp-dir';

/** Seeded jobs made into each kind the audio path's staging area keeps files for, and some that need none. */
function stagedHome() {
  const home = tempDir();
  seedQueue(home, 20, ['es', 'fr']);
  const { db, ran, plans } = recordingDb(home);
  const store = storeOn(db);
  const set = db.prepare(
    `UPDATE jobs SET state = @state, step = @step, staged_audio = @staged, dubbed_audio = @dubbed,
       deliver = @deliver, qc = @qc WHERE id = @id`,
  );
  const ids = db.prepare(`SELECT id FROM jobs ORDER BY id`).pluck().all() as number[];
  const kinds = [
    // Still to send its sound: kept.
    { state: 'queued', step: 'submit', staged: '/s/to-send.mp3', dubbed: null, deliver: null, qc: null },
    // Its dub made, to be fetched and rebuilt from the dubbed sound: kept.
    {
      state: 'processing',
      step: 'fetch',
      staged: null,
      dubbed: '/s/to-rebuild.mp3',
      deliver: null,
      qc: null,
    },
    // Finished, its QC to come (it reads the dubbed sound): kept.
    { state: 'completed', step: 'done', staged: null, dubbed: '/s/to-check.mp3', deliver: '{}', qc: null },
    // Finished and checked, or canceled: nothing kept for them.
    {
      state: 'completed',
      step: 'done',
      staged: '/s/sent.mp3',
      dubbed: '/s/checked.mp3',
      deliver: '{}',
      qc: '{}',
    },
    { state: 'canceled', step: 'submit', staged: '/s/canceled.mp3', dubbed: null, deliver: null, qc: null },
  ];
  db.transaction(() => {
    for (const [i, id] of ids.entries()) {
      const kind = kinds[i % kinds.length];
      if (i < kinds.length * 2 && kind) set.run({ id, ...kind });
      else
        set.run({
          id,
          state: 'completed',
          step: 'done',
          staged: null,
          dubbed: null,
          deliver: null,
          qc: null,
        });
    }
  })();
  return { store, db, ran, plans };
}

describe("the start's sweep of the audio path's staged files", () => {
  it('keeps the files of jobs that still need them, and only those', () => {
    const { store, db } = stagedHome();
    expect([...store.stagedAudio.inUse()].sort()).toEqual([
      '/s/to-check.mp3',
      '/s/to-rebuild.mp3',
      '/s/to-send.mp3',
    ]);
    db.close();
  });

  it('reads the few jobs that may need one through their own indexes, not the finished history', () => {
    // By state (every completed job) and by a scan of the table, it read all 100,000 jobs of the idle
    // bench's home at each start, before the watched folders could catch up.
    const { store, db, ran, plans } = stagedHome();
    ran.length = 0;
    store.stagedAudio.inUse();
    const explained = plans();
    expect(explained).toHaveLength(1);
    for (const { sql, plan } of explained) {
      expect(plan.join('\n'), sql).not.toMatch(/^(SCAN jobs$|SEARCH jobs USING INDEX jobs_state\b)/m);
      expect(plan.join('\n'), sql).toMatch(/jobs_deliver_due/);
    }
    db.close();
  });
});
