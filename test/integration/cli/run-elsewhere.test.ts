/**
 * `dubdesk run --until-done` with jobs made on another service (or account) in the queue: this run cannot
 * finish them, so it must not end as if everything were done.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExitCode } from '../../../electron/cli/exit-codes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let first: Sandbox;
let second: Sandbox;
beforeAll(async () => {
  [first, second] = await Promise.all([
    startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 }),
    startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 }),
  ]);
});
afterAll(() => Promise.all([first?.stop(), second?.stop()]));

const RunJson = z.object({
  outcome: z.string(),
  exitCode: z.number(),
  tally: z.object({ open: z.number() }),
});

describe('run --until-done with a job made on another service', () => {
  it('does its own jobs, then exits non-zero naming the job it could not finish and why', async () => {
    const work = tempDir('dubdesk-elsewhere-');
    const home = join(work, 'home');
    const out = join(work, 'out');
    const there = await runCli(
      ['add', videoMp4(2, 'made-there.mp4'), '--to', 'es', '--out', out],
      envFor(first, home),
    );
    expect(there.code, there.stderr).toBe(0);
    // The same queue, pointed at another service: one job of its own, one it cannot move.
    const env = envFor(second, home);
    const here = await runCli(['add', videoMp4(2, 'made-here.mp4'), '--to', 'fr', '--out', out], env);
    expect(here.code, here.stderr).toBe(0);

    const r = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(r.stderr).toMatch(/This run: 1 completed, 0 failed, 1 still open\./);
    expect(r.code, r.stderr).toBe(ExitCode.Elsewhere);
    expect(r.stderr).toMatch(/1 job was left open: it was made on another service/);
    expect(r.stderr).toMatch(
      new RegExp(`#1 made-there\\.mp4 → es: made on ${first.baseUrl.replace(/\./g, '\\.')}`),
    );
    expect(r.stderr).toMatch(/switch back to it/);

    const json = await runCli(['run', '--until-done', '--poll-interval', '0.1', '--json'], env);
    expect(json.code).toBe(ExitCode.Elsewhere);
    expect(RunJson.parse(JSON.parse(json.stdout))).toMatchObject({
      outcome: 'done',
      exitCode: ExitCode.Elsewhere,
      tally: { open: 1 },
    });
  }, 90_000);
});
