import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../electron/engine/db/open';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { contend } from '../../helpers/contender';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { fileURLToPath } from 'node:url';

const CONTENDER = fileURLToPath(new URL('../../helpers/lock-contender.ts', import.meta.url));

/** A lock left by a process that no longer exists: every starter may take it over, but only one may win. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid ?? 999_999;
}

describe('one worker per queue', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
  });
  afterAll(() => sb.stop());

  it('four processes taking over a stale lock at the same instant: exactly one holds it, in every trial', async () => {
    const trials = 4;
    for (let t = 0; t < trials; t++) {
      const home = tempDir('dubdesk-race-');
      const db = openDatabase(join(home, 'dubdesk.db'));
      db.prepare(
        `INSERT INTO runner_lock (id, owner, pid, host, heartbeat_at, started_at) VALUES (1, 'gone', ?, ?, 0, 0)`,
      ).run(await deadPid(), (await import('node:os')).hostname());
      db.close();
      const outcomes = await contend(CONTENDER, [home], 4);
      expect(
        outcomes.filter((o) => o === 'held'),
        `trial ${t}: ${outcomes.join(', ')}`,
      ).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'busy busy')).toHaveLength(3);
    }
  }, 180_000);

  it('two `dubdesk run` started together on one home never work the same job', async () => {
    const home = join(tempDir('dubdesk-race-'), 'home');
    const env = envFor(sb, home);
    const files = [videoMp4(2, 'race-a.mp4'), videoMp4(3, 'race-b.mp4')];
    expect((await runCli(['add', ...files, '--to', 'es,fr', '--out', join(home, 'out')], env)).code).toBe(0);
    const a = startCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    const b = startCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    const codes = [ra.code, rb.code].sort();
    expect(codes, `${ra.stderr}\n${rb.stderr}`).toEqual([0, 6]);
    expect([ra, rb].find((r) => r.code === 6)?.stderr).toContain('is already working this queue');
    const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
      jobs: { state: string; remoteId: string }[];
    };
    expect(status.jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed', 'completed']);
    const mine = startedDubs(sb).filter((d) => status.jobs.some((j) => j.remoteId === d.id));
    expect(mine).toHaveLength(4);
    expect(sb.state.ledger.filter((c) => mine.some((d) => d.id === c.dubId))).toHaveLength(4);
  });
});
