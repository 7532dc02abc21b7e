/**
 * The machine's clock stepped back an hour in the middle of a batch, as NTP does after a laptop slept with
 * a clock running fast: `dubdesk run` keeps polling the service and retrying on time, measured by how long
 * it really waited, not by a wall clock that now reads an hour earlier. The service (the sandbox, in this
 * process) is another machine whose clock did not move.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CLI, envFor, runCli, type CliResult } from '../../helpers/cli';
import { videoMp4 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';

const FAKE_CLOCK = fileURLToPath(new URL('../../helpers/fake-clock.mjs', import.meta.url));
const HOUR_MS = 3_600_000;
const PATIENT = { timeout: 30_000, interval: 100 };

interface Run {
  stderr: () => string;
  /** Steps the run's wall clock by `ms` (its timers and monotonic clock keep real time). */
  stepClock: (ms: number) => void;
  done: Promise<CliResult>;
}

/** `dubdesk run --until-done` over a queue of one file to Spanish, with a wall clock the test can step. */
async function queuedRun(sb: Sandbox, name: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  const work = tempDir('dubdesk-clock-back-');
  const env = { ...envFor(sb, join(work, 'home')), ...extraEnv };
  const added = await runCli(['add', videoMp4(2, name), '--to', 'es', '--out', join(work, 'out')], env);
  expect(added.code, added.stderr).toBe(0);
  const clockFile = join(work, 'clock-offset-ms');
  writeFileSync(clockFile, '0');
  const child = spawn(
    process.execPath,
    ['--import', FAKE_CLOCK, CLI, 'run', '--until-done', '--poll-interval', '0.2'],
    { env: { ...env, DUBDESK_TEST_CLOCK_FILE: clockFile }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return {
    stderr: () => stderr,
    stepClock(ms) {
      writeFileSync(clockFile, String(ms));
      child.kill('SIGUSR2');
    },
    done,
  };
}

describe('the clock stepped back an hour while a batch runs', () => {
  let sb: Sandbox | null = null;
  afterEach(async () => {
    await sb?.stop();
    sb = null;
  });

  it('a dub in the service queue is still polled: the run ends with its files', async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 4 });
    const run = await queuedRun(sb, 'polled after the step.mp4');
    await vi.waitFor(() => expect(run.stderr()).toMatch(/in the service queue|processing/), PATIENT);
    run.stepClock(-HOUR_MS);
    const ended = await run.done;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stderr).toMatch(/✓ #1 polled after the step\.mp4 → es: /);
  }, 60_000);

  it('a job waiting to retry after a service error retries after its wait, not an hour later', async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 1, faults: { rate502: 1 } });
    const service = sb;
    const run = await queuedRun(sb, 'retried after the step.mp4', { DUBDESK_RETRY_BASE_MS: '4000' });
    // Its create was answered 502: the job waits out its backoff (a few seconds) before trying again.
    await vi.waitFor(
      () => expect(run.stderr()).toMatch(/#1 retried after the step\.mp4 → es: .*retrying in/),
      PATIENT,
    );
    run.stepClock(-HOUR_MS);
    service.setFaults({ rate502: 0 });
    const ended = await run.done;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stderr).toMatch(/✓ #1 retried after the step\.mp4 → es: /);
  }, 60_000);
});
