/**
 * Dubdesk's ffmpeg runs in a process group of its own (a Ctrl+C meant for the run must not kill a rebuild
 * the drain lets finish). Where the engine spawns it itself (in the desktop app, whose Electron cannot run
 * the tool host: DUBDESK_TOOL_HOST=off here) a kill -9 of Dubdesk leaves it running, writing its `.part`. A run started at
 * once must never have a second ffmpeg write beside it: the restart stops the stale ffmpeg it recorded
 * (the very process: its pid and start time) before it writes anything, and every writer has a part of its
 * own. Watched with `ps`, the way a user would find two ffmpegs.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/server';
import { startCli } from '../../helpers/cli';
import { extracting, longExtraction, paidOnceAndWhole } from '../../helpers/long-extraction';
import { alive, ffmpegsUnder } from '../../helpers/processes';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

describe.skipIf(process.platform === 'win32')(
  'kill -9 of Dubdesk while its ffmpeg extracts (skipped on Windows: no process groups, no ps)',
  () => {
    it('the restart stops the stale ffmpeg before its own starts; the job completes, paid once, no .part left', async () => {
      // Eight minutes of MP2 sound: re-encoded to AAC on the way out, long enough to outlive the kill.
      const run = await longExtraction('dubdesk-crash-ffmpeg-', { DUBDESK_TOOL_HOST: 'off' });
      sb = run.s;
      const { home, env } = run;
      const first = startCli(['run', '--until-done', '--poll-interval', '0.1'], env);
      const stale = await extracting(home);
      first.child.kill('SIGKILL');
      await first.done;
      expect(alive(stale.pid), 'the premise: the ffmpeg outlives the killed run').toBe(true);

      const second = startCli(['run', '--until-done', '--poll-interval', '0.1'], env);
      const fresh = await vi.waitFor(
        () => {
          const tools = ffmpegsUnder(home).filter((t) => t.pid !== stale.pid);
          if (tools.length === 0) throw new Error('the restart has not started its ffmpeg yet');
          return tools;
        },
        { timeout: 120_000, interval: 10 },
      );
      expect(alive(stale.pid), `a stale ffmpeg writes beside the restart's: ${stale.args}`).toBe(false);
      expect(fresh).toHaveLength(1);

      const final = await second.done;
      expect(final.code, final.stderr).toBe(0);
      await paidOnceAndWhole(run);
    }, 300_000);
  },
);
