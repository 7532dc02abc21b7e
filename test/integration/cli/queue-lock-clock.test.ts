/**
 * One process works a queue at a time: the holder of the queue's lock renews it, and another `dubdesk`
 * (the window, `run`, `serve`) takes it over only from a holder that is gone. On this machine a live pid
 * says the holder is there; its heartbeat guards only against a pid reused after a reboot. A step of the
 * machine's clock (NTP after sleep, a user setting the time) must not make a holder that runs look gone:
 * the other process would take the queue and the first would stop mid-work. Both processes here read the
 * same stepped clock, as two processes on one machine do; their timers and monotonic clocks keep real time.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusJson } from '../../../electron/cli/json-shapes';
import { startSandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { videoMp4 } from '../../helpers/media';
import { steppedClock, type SteppedClock } from '../../helpers/stepped-clock';
import { tempDir } from '../../helpers/temp-dir';
import { waitFor } from '../../helpers/watch';

const HOUR_MS = 3_600_000;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A sandbox whose dubs take `pipelineSeconds`, a data folder, and a clock the test steps. */
async function world(pipelineSeconds: number) {
  const sb = await startSandbox({ ffmpeg: false, pipelineSeconds });
  cleanup.push(() => sb.stop());
  const work = tempDir('dubdesk-lock-clock-');
  const home = join(work, 'home');
  return { work, home, env: envFor(sb, home), clock: steppedClock(work) };
}

/** `dubdesk ARGS` left running on the clock; killed (stopped or not) after the test. */
function started(clock: SteppedClock, args: string[], env: NodeJS.ProcessEnv) {
  const child = clock.spawn(args, env);
  const ended = new Promise((resolve) => child.on('close', resolve));
  cleanup.push(async () => {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await ended;
  });
  return { child, ended };
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

async function queueRunning(clock: SteppedClock, env: NodeJS.ProcessEnv): Promise<boolean> {
  const status = await clock.ran(['status', '--json'], env);
  return StatusJson.parse(JSON.parse(status.out)).queue.running;
}

const workingTheQueue = (clock: SteppedClock, env: NodeJS.ProcessEnv) =>
  waitFor(
    'the holder to work the queue',
    () => queueRunning(clock, env),
    (running) => running,
  );

describe("the queue's lock across a step of the clock", () => {
  it.each([+HOUR_MS, -HOUR_MS])(
    'a holder that runs keeps the queue when the clock steps %i ms',
    async (step) => {
      const { env, clock } = await world(0.2);
      const holder = started(clock, ['run'], env);
      await workingTheQueue(clock, env);
      // Stopped, it renews nothing: as a holder asleep between its idle turns has not yet.
      holder.child.kill('SIGSTOP');
      clock.step(step);

      expect(await queueRunning(clock, env)).toBe(true);
      const second = await clock.ran(['run', '--until-done'], env);
      expect(second.code, second.err).toBe(6);
      expect(second.err).toMatch(/already working this queue/);
    },
  );

  it('a holder that was killed is taken over at once, whichever way the clock stepped', async () => {
    const { env, clock } = await world(0.2);
    const holder = started(clock, ['run'], env);
    await workingTheQueue(clock, env);
    holder.child.kill('SIGKILL');
    await holder.ended;
    clock.step(-HOUR_MS);

    expect(await queueRunning(clock, env)).toBe(false);
    const second = await clock.ran(['run', '--until-done'], env);
    expect(second.code, second.err).toBe(0);
  });

  it('a holder at work goes on renewing its heartbeat after the clock steps an hour back', async () => {
    const { work, home, env, clock } = await world(600);
    const added = await runCli(['add', videoMp4(2, 'lock-clock.mp4'), '--to', 'es', '--out', work], env);
    expect(added.code, added.stderr).toBe(0);
    // A dub the service works on for ten minutes: the holder follows it, so it renews every few seconds.
    const holder = started(clock, ['run', '--poll-interval', '0.2'], env);
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
    clock.step(-HOUR_MS);
    holder.child.kill('SIGUSR2');
    // Renewing by the wall clock, it would say nothing for an hour, and look gone after ten minutes. One
    // renewal may slip in before the step is read: two are waited for.
    const after = await renewed(await renewed(heartbeatMono(home)));
    expect(after).not.toBeNull();
  });
});
