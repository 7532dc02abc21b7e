import Database from 'better-sqlite3';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

interface StoredOutput {
  type: string;
  path: string;
  bytes: number | null;
  done: number;
}

describe('a crash between two outputs of a job', () => {
  it('finds the one already moved into place (recorded with its length, not yet done) and fetches only the other', async () => {
    const home = tempDir('dubdesk-resume-home-');
    const out = tempDir('dubdesk-resume-out-');
    let host = engineFor(sb, home);
    const { added } = await host.api.add({ inputs: [videoMp4(2, 'resume.mp4')], to: ['es'], outDir: out });
    const id = added[0] ?? 0;
    expect(await host.run(quickRun())).toBe('done');
    await host.close();
    const files = readdirSync(out).sort();
    expect(files).toHaveLength(2);

    // What a kill leaves after the first output's move and before the second's download: the job at its
    // download step, the first output recorded with its path and length but not yet done (it is marked done
    // with the next record), the second only named, its file not there.
    const db = new Database(join(home, 'dubdesk.db'));
    db.prepare(
      `UPDATE jobs SET state = 'downloading', step = 'fetch', completed_at = NULL, next_run_at = 0 WHERE id = ?`,
    ).run(id);
    const [moved, pending] = db
      .prepare('SELECT type, path, bytes, done FROM outputs WHERE job_id = ? ORDER BY rowid')
      .all(id) as StoredOutput[];
    if (!moved || !pending) throw new Error('the job has not two outputs');
    db.prepare('UPDATE outputs SET done = 0 WHERE job_id = ? AND type = ?').run(id, moved.type);
    db.prepare('UPDATE outputs SET done = 0, bytes = NULL WHERE job_id = ? AND type = ?').run(
      id,
      pending.type,
    );
    db.close();
    rmSync(pending.path);
    const movedInode = statSync(moved.path).ino;

    host = engineFor(sb, home);
    try {
      expect(await host.run(quickRun())).toBe('done');
      const job = await host.api.getJob({ id });
      expect(job.state).toBe('completed');
      expect(job.outputs.map((o) => o.path).sort()).toEqual([moved.path, pending.path].sort());
      // Not downloaded again, and no second copy under a free name.
      expect(statSync(moved.path).ino).toBe(movedInode);
      expect(readdirSync(out).sort()).toEqual(files);
    } finally {
      await host.close();
    }
  });
});
