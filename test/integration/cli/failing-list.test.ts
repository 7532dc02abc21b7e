/**
 * A list of dubs that keeps failing (500 for ever, 100 MB, 200,000-deep nesting) left jobs at "submitted
 * 0%" for ever with no word. Polls count toward the service's failure budget, the jobs say what is failing,
 * and `dub` / `run --until-done` stop with exit 5 as for an unreachable service; the next run finds the dubs
 * again and pays nothing more. A list full of other dubs (and 1e15 pages) is got round through the details.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../electron/cli/exit-codes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, startCli } from '../../helpers/cli';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const children: (() => void)[] = [];
afterEach(() => {
  for (const kill of children.splice(0)) kill();
});
/** A CLI run, killed after the test should it hang (what this file is about). */
function runCli(args: string[], env: NodeJS.ProcessEnv, cwd?: string) {
  const cli = startCli(args, env, cwd);
  children.push(() => cli.child.kill('SIGKILL'));
  return cli.done;
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.5, ffmpeg: false });
});
afterAll(() => sb.stop());

interface JobJson {
  state: string;
  waiting: { code: string; message: string } | null;
  creditsCharged: number | null;
}

const jobOf = async (env: NodeJS.ProcessEnv) =>
  (JSON.parse((await runCli(['status', '--json'], env)).stdout) as { jobs: JobJson[] }).jobs[0];

describe('a list of dubs that keeps failing', () => {
  it.each([
    ['error', 'v2', /HTTP 500/],
    ['huge', 'v2', /larger than 8 MiB/],
    ['deep', 'v1', /nested deeper than/],
  ] as const)(
    '%s (%s): the job says so, dub exits 5, and the next run completes it, paid once',
    async (fault, api, why) => {
      const work = tempDir('dubdesk-list-');
      const env = envFor(sb, join(work, 'home'));
      const name = `list-${fault}.mp4`;
      sb.setFaults({ listFault: fault });
      try {
        const r = await runCli(
          ['dub', videoMp4(2, name), '--to', 'es', '--api', api, '--out', 'out', '--poll-interval', '0.1'],
          env,
          work,
        );
        expect(r.code, r.stderr).toBe(ExitCode.Offline);
        expect(r.stderr).toMatch(/the service's list of dubs keeps failing/);
        expect(r.stderr).not.toMatch(/\n\s+at /);
        const job = await jobOf(env);
        expect(job?.state).toMatch(/^(submitted|processing)$/);
        expect(job?.waiting?.message).toMatch(/list of dubs/);
        expect(job?.waiting?.message).toMatch(why);
      } finally {
        sb.setFaults({ listFault: 'none' });
      }
      const again = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env, work);
      expect(again.code, again.stderr).toBe(0);
      expect((await jobOf(env))?.state).toBe('completed');
      expect(startedDubs(sb).filter((d) => d.name === name)).toHaveLength(1);
    },
    180_000,
  );

  it('full of other dubs, 1e15 pages of them: the job is followed through its details and completes', async () => {
    const work = tempDir('dubdesk-list-');
    const env = envFor(sb, join(work, 'home'));
    sb.setFaults({ listFault: 'others' });
    try {
      const r = await runCli(
        ['dub', videoMp4(2, 'list-others.mp4'), '--to', 'es', '--out', 'out', '--poll-interval', '0.1'],
        env,
        work,
      );
      expect(r.code, r.stderr).toBe(0);
      expect((await jobOf(env))?.state).toBe('completed');
    } finally {
      sb.setFaults({ listFault: 'none' });
    }
  }, 120_000);
});
