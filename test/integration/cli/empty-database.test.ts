/**
 * A queue database that is empty (0 bytes: a crash during a copy, a sync tool, a full disk) or gone, while
 * its backups lie beside it, is damage, not a new queue: taken for an empty one, watching again would pay
 * for every file once more. `status`, `doctor` and every command say so and offer the backup.
 */
import { rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { allJobs, engineFor, tempDir } from '../../helpers/engine';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

/** A home whose queue holds one job and a backup of it (the second start makes one). */
async function homeWithABackup(): Promise<string> {
  const home = tempDir();
  const first = engineFor(sb, home);
  await first.api.add({ inputs: [videoMp4(1, 'kept.mp4')], to: ['es'], outDir: tempDir() });
  await first.close();
  await engineFor(sb, home).close();
  return home;
}

describe.each([
  ['emptied to 0 bytes', (db: string) => truncateSync(db, 0), /is empty \(0 bytes\)/],
  ['gone', (db: string) => rmSync(db), /is missing/],
])('a queue database %s beside its backups', (_how, damage, said) => {
  it('is named as damage with the backup to restore, by status and doctor; restore-db brings the queue back', async () => {
    const home = await homeWithABackup();
    const db = join(home, 'dubdesk.db');
    for (const ext of ['-wal', '-shm']) rmSync(`${db}${ext}`, { force: true });
    damage(db);
    const env = envFor(sb, home);

    const status = await runCli(['status'], env);
    expect(status.code).not.toBe(0);
    expect(status.stderr).toContain(db);
    expect(status.stderr).toMatch(said);
    expect(status.stderr).toContain('dubdesk restore-db');
    expect(status.stderr).not.toMatch(/\n\s+at /);

    const doctor = await runCli(['doctor'], env);
    expect(doctor.code).not.toBe(0);
    expect(doctor.stdout).toMatch(new RegExp(`^✗ Queue database: .*${said.source}`, 'm'));

    const restored = await runCli(['restore-db'], env);
    expect(restored.code, restored.stderr).toBe(0);
    const after = engineFor(sb, home);
    try {
      expect((await allJobs(after.api)).map((j) => j.sourceName)).toEqual(['kept.mp4']);
    } finally {
      await after.close();
    }
  });
});
