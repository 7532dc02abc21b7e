import { describe, expect, it } from 'vitest';
import { WatchPresetSchema } from '../../shared/contract/watch';
import { WatchStore } from '../../electron/engine/db/watch';
import type { Db } from '../../electron/engine/db/open';
import { tempDir } from '../helpers/temp-dir';
import { recordingDb } from '../helpers/recording-db';
import { seedQueue } from '../helpers/seed';

/** A watch store whose statements are recorded, to be explained afterwards. */
function recordingWatch(home: string) {
  const { db, ran, plans } = recordingDb(home);
  return { watch: new WatchStore(db), db, ran, plans };
}

/**
 * Whether a statement walks every file of a folder (or of all folders): a scan, or an index searched by
 * the folder alone. A folder of 10,000 taken files made each idle turn of the watcher read them all.
 */
const readsAllFiles = (plan: string[]) =>
  plan.some((d) => /^SCAN watch_files\b/.test(d) || /^SEARCH watch_files .*\(folder_id=\?\)$/.test(d));

describe('an idle watcher over big folders', () => {
  it("each turn's questions (anything ready, due or settling?) walk no folder's whole file list", () => {
    const home = tempDir();
    const { watch, db, ran, plans } = recordingWatch(home);
    const now = Date.now();
    const folder = watch.folders.insert(tempDir(), WatchPresetSchema.parse({ to: ['es'] }), now);
    const taken = db.prepare(
      `INSERT INTO watch_files (folder_id, path, status, size, mtime_ms, changed_at, wait_since, first_seen_at,
         taken_at, updated_at) VALUES (?, ?, 'taken', 1, 1, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) taken.run(folder, `/w/${i}.mp4`, now, now, now, now, now);
    })();
    ran.length = 0;
    watch.files.hasStatus(folder, 'ready');
    watch.files.withStatus(folder, 'ready', 2000);
    watch.files.due(folder, now, 500);
    watch.files.nextCheckAt(folder);
    const explained = plans();
    expect(explained.length).toBe(4);
    for (const { sql, plan } of explained)
      expect(readsAllFiles(plan), `${sql}\n${plan.join('\n')}`).toBe(false);
    db.close();
  });

  it("a folder view's credits of the last hour walk the hour's taken files, not all of them", () => {
    const { watch, db, ran, plans } = recordingWatch(tempDir());
    const now = Date.now();
    const folder = bigFolder(watch, db, now - 86_400_000);
    ran.length = 0;
    expect(watch.links.creditsSince(folder, now - 3_600_000)).toBe(0);
    const [first] = plans();
    if (!first) throw new Error('nothing ran');
    const { sql, plan } = first;
    // By (folder, status) it read each of the folder's taken files for every view of the folder.
    expect(plan.join('\n'), sql).toMatch(/INDEX watch_files_taken \(folder_id=\? AND taken_at>\?\)/);
    db.close();
  });

  it("a folder's status counts are read again only after a write that can change them", () => {
    const { watch, db, ran } = recordingWatch(tempDir());
    const now = Date.now();
    const folder = bigFolder(watch, db, now);
    const counted = () => ran.filter((r) => /GROUP BY shown/.test(r.sql)).length;
    expect(watch.counts.get(folder).done).toBe(2000);
    expect(counted()).toBe(1);
    watch.counts.get(folder);
    // The folder's own row (its state, its last scan, the heartbeat) says nothing of its files' statuses.
    watch.folders.setState(folder, { status: 'watching', message: null, polled: false, pollReason: null });
    watch.folders.scanned(folder, now);
    watch.folders.activity(folder, now);
    watch.beat.heartbeat('me', now, 0);
    expect(watch.counts.get(folder).done).toBe(2000);
    expect(counted(), 'counted again without a change to its files or jobs').toBe(1);
    const row = watch.files.withStatus(folder, 'taken', 1)[0];
    if (!row) throw new Error('no taken file');
    watch.files.update(row.id, row.rev, { status: 'attention' }, now);
    expect(watch.counts.get(folder).attention).toBe(1);
    expect(counted()).toBe(2);
    db.close();
  });

  it("a catch-up's look for problems (an original not moved) walks the folder's problems, not its files", () => {
    const { watch, db, ran, plans } = recordingWatch(tempDir());
    const folder = bigFolder(watch, db, Date.now());
    ran.length = 0;
    expect(watch.folders.hasProblems(folder)).toBe(false);
    const [first] = plans();
    if (!first) throw new Error('nothing ran');
    // By (folder, status) it read every taken file of the folder at each catch-up (3 ms a folder of 10,000).
    expect(first.plan.join('\n'), first.sql).toMatch(/INDEX watch_files_problem \(folder_id=\?\)/);
    db.close();
  });

  it("a folder's stored counts follow its jobs: a linked job failing, then removed", () => {
    const home = tempDir();
    seedQueue(home, 1, ['es']);
    const { watch, db } = recordingWatch(home);
    const now = Date.now();
    const folder = bigFolder(watch, db, now);
    const row = watch.files.withStatus(folder, 'taken', 1)[0];
    const jobId = db.prepare(`SELECT id FROM jobs LIMIT 1`).pluck().get() as number;
    if (!row) throw new Error('no taken file');
    watch.links.link(row.id, jobId, true);
    expect(watch.counts.get(folder)).toMatchObject({ queued: 1, done: 1999 });
    db.prepare(`UPDATE jobs SET state = 'failed' WHERE id = ?`).run(jobId);
    expect(watch.counts.get(folder)).toMatchObject({ failed: 1, queued: 0 });
    // Removed (as `dubdesk remove` does with a failed job): the file's recorded outcome speaks again.
    db.prepare(`DELETE FROM jobs WHERE id = ?`).run(jobId);
    expect(watch.counts.get(folder)).toMatchObject({ failed: 0, done: 2000 });
    db.close();
  });
});

/** A folder of 2,000 files taken at `takenAt`. */
function bigFolder(watch: WatchStore, db: Db, takenAt: number): number {
  const folder = watch.folders.insert(tempDir(), WatchPresetSchema.parse({ to: ['es'] }), takenAt);
  const taken = db.prepare(
    `INSERT INTO watch_files (folder_id, path, status, size, mtime_ms, changed_at, wait_since, first_seen_at,
       taken_at, updated_at, credits) VALUES (?, ?, 'taken', 1, 1, ?, ?, ?, ?, ?, 10)`,
  );
  db.transaction(() => {
    for (let i = 0; i < 2000; i++)
      taken.run(folder, `/w/${i}.mp4`, takenAt, takenAt, takenAt, takenAt, takenAt);
  })();
  return folder;
}
