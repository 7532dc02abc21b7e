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
import { allJobs, engineFor, quickRun } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());
let n = 0;

/** A home whose queue holds one job, dubbed, and a backup of it (the second start makes one). */
async function homeWithABackup(source: string, outDir: string): Promise<string> {
  const home = tempDir();
  const first = engineFor(sb, home);
  await first.api.add({ inputs: [source], to: ['es'], outDir });
  expect(await first.run(quickRun(1))).toBe('done');
  await first.close();
  await engineFor(sb, home).close();
  return home;
}

/** The dubs the service made of `name`. */
const dubsOf = (name: string) => [...sb.state.dubs.values()].filter((d) => d.name === name);

describe.each([
  ['emptied to 0 bytes', (db: string) => truncateSync(db, 0), /is empty \(0 bytes\)/],
  ['gone', (db: string) => rmSync(db), /is missing/],
])('a queue database %s beside its backups', (_how, damage, said) => {
  it('is named as damage with the backup to restore, by status, doctor and dub; restore-db brings the queue back', async () => {
    const name = `kept-${++n}.mp4`;
    const source = videoMp4(1, name);
    const outDir = tempDir();
    const home = await homeWithABackup(source, outDir);
    expect(dubsOf(name)).toHaveLength(1);
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

    // Dubbing the file again from a queue taken for empty would pay for it twice: nothing is sent.
    const dub = await runCli(['dub', source, '--to', 'es', '--out', outDir], env);
    expect(dub.code).not.toBe(0);
    expect(dub.stderr).toMatch(said);
    expect(dub.stderr).toContain('dubdesk restore-db');
    expect(dubsOf(name)).toHaveLength(1);

    const restored = await runCli(['restore-db'], env);
    expect(restored.code, restored.stderr).toBe(0);
    const after = engineFor(sb, home);
    try {
      expect((await allJobs(after.api)).map((j) => j.sourceName)).toEqual([name]);
    } finally {
      await after.close();
    }
    // The restored queue knows the file is dubbed: asked again, it names the results, pays nothing.
    const again = await runCli(['dub', source, '--to', 'es', '--out', outDir], env);
    expect(again.code, again.stderr).toBe(0);
    expect(dubsOf(name)).toHaveLength(1);
  });
});
