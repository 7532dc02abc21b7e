import { describe, expect, it } from 'vitest';
import { WatchPresetSchema } from '../../shared/contract/watch';
import { WatchStore } from '../../electron/engine/db/watch';
import { tempDir } from '../helpers/engine';
import { recordingDb } from '../helpers/recording-db';

/** A watch store whose statements are recorded, to be explained afterwards. */
function recordingWatch(home: string) {
  const { db, ran, plans } = recordingDb(home);
  return { watch: new WatchStore(db), ran, plans };
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
    const { watch, ran, plans } = recordingWatch(home);
    const now = Date.now();
    const folder = watch.insertFolder(tempDir(), WatchPresetSchema.parse({ to: ['es'] }), now);
    const taken = watch.db.prepare(
      `INSERT INTO watch_files (folder_id, path, status, size, mtime_ms, changed_at, wait_since, first_seen_at,
         taken_at, updated_at) VALUES (?, ?, 'taken', 1, 1, ?, ?, ?, ?, ?)`,
    );
    watch.db.transaction(() => {
      for (let i = 0; i < 2000; i++) taken.run(folder, `/w/${i}.mp4`, now, now, now, now, now);
    })();
    ran.length = 0;
    watch.hasStatus(folder, 'ready');
    watch.withStatus(folder, 'ready', 2000);
    watch.due(folder, now, 500);
    watch.nextCheckAt(folder);
    const explained = plans();
    expect(explained.length).toBe(4);
    for (const { sql, plan } of explained)
      expect(readsAllFiles(plan), `${sql}\n${plan.join('\n')}`).toBe(false);
    watch.db.close();
  });
});
