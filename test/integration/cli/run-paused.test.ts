/**
 * `dubdesk run` while the queue is paused (by `dubdesk pause` from another shell): its lines and its summary
 * say so, the dubs the service already has are followed until they end (and charged as the sandbox's ledger
 * says), and their downloads wait for resume.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { ExitCode } from '../../../electron/cli/exit-codes';
import { stateWords } from '../../../shared/state-words';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 8 });
});
afterAll(() => sb.stop());

const Status = z.object({
  jobs: z.array(z.object({ state: z.string(), creditsCharged: z.number().nullable() })),
});

describe('dubdesk run, paused mid-run', () => {
  it('says "paused" in its lines and summary, and records the charges of the dubs already started', async () => {
    const work = tempDir('dubdesk-run-paused-');
    const env = envFor(sb, join(work, 'home'));
    const files = ['a', 'b', 'c', 'd'].map((n) => videoMp4(2, `run-paused-${n}.mp4`));
    const add = await runCli(['add', ...files, '--to', 'es', '--out', join(work, 'out')], env);
    expect(add.code, add.stderr).toBe(0);

    const run = startCli(['run', '--until-done', '--poll-interval', '0.1', '--concurrency', '1'], env);
    // The first dub is on the service (uploads go one at a time): pause from another shell.
    await vi.waitFor(() => expect(sb.state.dubs.size).toBeGreaterThan(0), { timeout: 20_000 });
    const pause = await runCli(['pause'], env);
    expect(pause.stderr).toContain('Dubs already started keep being processed and charged by the service');

    const r = await run.done;
    expect(r.code, r.stderr).toBe(ExitCode.Paused);
    const started = sb.state.dubs.size;
    // The run follows what the service was making until it ended: each charge is recorded.
    expect(sb.state.ledger).toHaveLength(started);
    const charged = sb.state.ledger.reduce((n, c) => n + c.seconds, 0);
    // The plain lines say the queue is paused, and what waits for resume.
    expect(r.stderr).toMatch(
      /^ {2}the queue is paused: nothing new starts; dubs already started are followed until the service ends them$/m,
    );
    expect(r.stderr).toMatch(/: done at the service, download paused \(the queue is paused\)\n/);
    const waiting = stateWords('queued');
    expect(r.stderr).not.toMatch(new RegExp(`: ${waiting}\\n[^]*the queue is paused\\n[^]*: ${waiting}\\n`));
    // The summary too.
    expect(r.stderr).toMatch(/This run: 0 completed, 0 failed, 4 still open \(the queue is paused\)\./);
    expect(r.stderr).toContain(`Credits charged: ${charged}`);

    const status = Status.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
    expect(status.jobs.reduce((n, j) => n + (j.creditsCharged ?? 0), 0)).toBe(charged);
  }, 60_000);

  it('pause <id> of a job whose dub started says the service goes on with it', async () => {
    // A dub that takes longer than a loaded machine's few CLI runs: it is still at the service when paused.
    const slow = await startSandbox({ ffmpeg: false, pipelineSeconds: 300 });
    let run: ReturnType<typeof startCli> | null = null;
    try {
      const work = tempDir('dubdesk-run-paused-');
      const env = envFor(slow, join(work, 'home'));
      const add = await runCli(
        ['add', videoMp4(3, 'run-paused-one.mp4'), '--to', 'es', '--out', 'out'],
        env,
        work,
      );
      expect(add.code, add.stderr).toBe(0);
      run = startCli(['run', '--until-done', '--poll-interval', '0.1'], env);
      // The run's own line says when the job is at the service (one status a try started a CLI a try).
      let said = '';
      run.child.stderr?.on('data', (d: Buffer) => (said += d.toString()));
      const atService = new RegExp(`: (${stateWords('submitted')}|${stateWords('processing')})$`, 'm');
      await vi.waitFor(() => expect(said).toMatch(atService), { timeout: 45_000 });
      const status = Status.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout));
      expect(status.jobs[0]?.state).toMatch(/^(submitted|processing)$/);
      expect(slow.state.dubs.size).toBe(1);
      const r = await runCli(['pause', '1'], env);
      expect(r.stderr).toContain('Paused #1');
      expect(r.stderr).toContain('Dubs already started keep being processed and charged by the service');
      // Paused on its own, the job does not hold the run; its dub is recorded by the next run that polls.
      expect((await run.done).code).toBe(ExitCode.Paused);
    } finally {
      // A run left behind by a failed check would work this home long after the test.
      run?.child.kill('SIGKILL');
      await slow.stop();
    }
  }, 90_000);
});
