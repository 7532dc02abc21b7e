/**
 * One process works a queue at a time: the holder of the queue's lock renews it, and another `dubdesk`
 * (the window, `run`, `serve`) takes it over only from a holder that is gone. On this machine a live pid
 * says the holder is there; its heartbeat guards only against a pid reused after a reboot. A step of the
 * machine's clock (NTP after sleep, a user setting the time) must not make a holder that runs look gone:
 * the other process would take the queue and the first would stop mid-work. Both processes here read the
 * same stepped clock, as two processes on one machine do; their timers and monotonic clocks keep real time.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox } from '../../../electron/sandbox/server';
import { CLI, envFor, runCli } from '../../helpers/cli';
import { videoMp4 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';
import { waitFor } from '../../helpers/watch';

const FAKE_CLOCK = fileURLToPath(new URL('../../helpers/fake-clock.mjs', import.meta.url));
const HOUR_MS = 3_600_000;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** `dubdesk ARGS` on the machine's stepped clock (the offset in `clockFile`). */
function onClock(args: string[], env: NodeJS.ProcessEnv, clockFile: string): ChildProcess {
  return spawn(process.execPath, ['--import', FAKE_CLOCK, CLI, ...args], {
    env: { ...env, DUBDESK_TEST_CLOCK_FILE: clockFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** What `ARGS` printed and how it ended, on the stepped clock. */
async function ran(args: string[], env: NodeJS.ProcessEnv, clockFile: string) {
  const child = onClock(args, env, clockFile);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out, err };
}

/** The holder's last heartbeat on the machine's monotonic clock, as the lock's row holds it. */
function heartbeatMono(home: string): number | null {
  const db = new Database(join(home, 'dubdesk.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT heartbeat_mono FROM runner_lock WHERE id = 1').get() as
      { heartbeat_mono: number | null } | undefined;
    return row?.heartbeat_mono ?? null;
  } finally {
    db.close();
  }
}

async function queueRunning(env: NodeJS.ProcessEnv, clockFile: string): Promise<boolean> {
  const status = await ran(['status', '--json'], env, clockFile);
  return StatusJson.parse(JSON.parse(status.out)).queue.running;
}

describe("the queue's lock across a step of the clock", () => {
  it.each([+HOUR_MS, -HOUR_MS])(
    'a holder that runs keeps the queue when the clock steps %i ms',
    async (step) => {
      const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
      cleanup.push(() => sb.stop());
      const work = tempDir('dubdesk-lock-clock-');
      const env = envFor(sb, join(work, 'home'));
      const clockFile = join(work, 'clock-offset-ms');
      writeFileSync(clockFile, '0');

      const holder = onClock(['run'], env, clockFile);
      const ended = new Promise((resolve) => holder.on('close', resolve));
      cleanup.push(async () => {
        holder.kill('SIGCONT');
        holder.kill('SIGKILL');
        await ended;
      });
      await waitFor(
        'the holder to work the queue',
        () => queueRunning(env, clockFile),
        (running) => running,
      );
      // Stopped, it renews nothing: as a holder asleep between its idle turns has not yet.
      holder.kill('SIGSTOP');
      writeFileSync(clockFile, String(step));

      expect(await queueRunning(env, clockFile)).toBe(true);
      const second = await ran(['run', '--until-done'], env, clockFile);
      expect(second.code, second.err).toBe(6);
      expect(second.err).toMatch(/already working this queue/);
    },
  );

  it('a holder that was killed is taken over at once, whichever way the clock stepped', async () => {
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
    cleanup.push(() => sb.stop());
    const work = tempDir('dubdesk-lock-clock-');
    const env = envFor(sb, join(work, 'home'));
    const clockFile = join(work, 'clock-offset-ms');
    writeFileSync(clockFile, '0');

    const holder = onClock(['run'], env, clockFile);
    const ended = new Promise((resolve) => holder.on('close', resolve));
    await waitFor(
      'the holder to work the queue',
      () => queueRunning(env, clockFile),
      (running) => running,
    );
    holder.kill('SIGKILL');
    await ended;
    writeFileSync(clockFile, String(-HOUR_MS));

    expect(await queueRunning(env, clockFile)).toBe(false);
    const second = await ran(['run', '--until-done'], env, clockFile);
    expect(second.code, second.err).toBe(0);
  });

  it('a holder at work goes on renewing its heartbeat after the clock steps an hour back', async () => {
    const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 600 });
    cleanup.push(() => sb.stop());
    const work = tempDir('dubdesk-lock-clock-');
    const home = join(work, 'home');
    const env = envFor(sb, home);
    const clockFile = join(work, 'clock-offset-ms');
    writeFileSync(clockFile, '0');
    const added = await runCli(['add', videoMp4(2, 'lock-clock.mp4'), '--to', 'es', '--out', work], env);
    expect(added.code, added.stderr).toBe(0);

    // A dub the service works on for ten minutes: the holder follows it, so it renews every few seconds.
    const holder = onClock(['run', '--poll-interval', '0.2'], env, clockFile);
    const ended = new Promise((resolve) => holder.on('close', resolve));
    cleanup.push(async () => {
      holder.kill('SIGKILL');
      await ended;
    });
    const renewed = (since: number | null) =>
      waitFor(
        'a heartbeat renewed',
        () => heartbeatMono(home),
        (mono) => mono !== null && since !== null && mono > since,
      );
    const taken = await waitFor(
      'the holder to take the queue',
      () => heartbeatMono(home),
      (mono) => mono !== null,
    );
    // Renewed once: its loop runs (the lock is taken before the loop starts).
    await renewed(taken);
    writeFileSync(clockFile, String(-HOUR_MS));
    holder.kill('SIGUSR2');
    // Renewing by the wall clock, it would say nothing for an hour, and look gone after ten minutes. One
    // renewal may slip in before the step is read: two are waited for.
    const after = await renewed(await renewed(heartbeatMono(home)));
    expect(after).not.toBeNull();
  });
});
