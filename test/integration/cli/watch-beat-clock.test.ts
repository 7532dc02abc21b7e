/**
 * Whether a folder is watched right now is read from the watching process's heartbeat: another `dubdesk`
 * on the same data folder (`watch --list`, `status`, the window) tells `watching` from `inactive` by it.
 * The machine's clock stepping an hour (NTP after sleep, a user setting it) must not make a watcher that
 * runs look gone, nor one that was killed look alive. Both processes here read the same stepped clock, as
 * two processes on one machine do; their timers and monotonic clocks keep real time.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WatchListJson } from '../../../electron/cli/json-shapes';
import { startSandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { steppedClock, type SteppedClock } from '../../helpers/stepped-clock';
import { tempDir } from '../../helpers/temp-dir';
import { waitFor } from '../../helpers/watch';

const HOUR_MS = 3_600_000;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** What another `dubdesk` on the same clock says of the folder: `watching`, `inactive`… */
async function statusSeen(clock: SteppedClock, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const listed = await clock.ran(['watch', '--list', '--json'], env);
  return WatchListJson.parse(JSON.parse(listed.out)).folders[0]?.status;
}

describe("a watcher's heartbeat read by another process across a step of the clock", () => {
  it.each([
    ['runs', +HOUR_MS, 'watching'],
    ['runs', -HOUR_MS, 'watching'],
    ['was killed', -HOUR_MS, 'inactive'],
    ['was killed', +HOUR_MS, 'inactive'],
  ] as const)(
    'a watcher that %s, the clock stepped %i ms: the folder reads %s',
    async (state, step, seen) => {
      const sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
      cleanup.push(() => sb.stop());
      const work = tempDir('dubdesk-beat-clock-');
      const env = envFor(sb, join(work, 'home'));
      const added = await runCli(['watch', tempDir('dubdesk-watch-'), '--to', 'es'], env);
      expect(added.code, added.stderr).toBe(0);
      const clock = steppedClock(work);

      const watcher = clock.spawn(['run'], env);
      const ended = new Promise((resolve) => watcher.on('close', resolve));
      cleanup.push(async () => {
        watcher.kill('SIGCONT');
        watcher.kill('SIGKILL');
        await ended;
      });
      await waitFor(
        'the folder to be watched',
        () => statusSeen(clock, env),
        (s) => s === 'watching',
      );
      // Stopped, it beats no more: as a watcher idle for minutes, whose heartbeat is renewed seldom, has not.
      if (state === 'runs') watcher.kill('SIGSTOP');
      else {
        watcher.kill('SIGKILL');
        await ended;
      }
      clock.step(step);
      expect(await statusSeen(clock, env)).toBe(seen);
    },
  );
});
