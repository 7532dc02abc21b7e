/**
 * Dubdesk's ffmpeg runs in a process group of its own (a Ctrl+C meant for the run must not kill a rebuild
 * the drain lets finish). Where the engine spawns it itself (in the desktop app, whose Electron cannot run
 * the tool host: DUBDESK_TOOL_HOST=off here) a kill -9 of Dubdesk leaves it running, writing its `.part`. A run started at
 * once must never have a second ffmpeg write beside it: the restart stops the stale ffmpeg it recorded
 * (the very process: its pid and start time) before it writes anything, and every writer has a part of its
 * own. Watched with `ps`, the way a user would find two ffmpegs.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { alive, ffmpegsUnder } from '../../helpers/processes';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { videoMatroska } from '../../helpers/media';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const files = async (dir: string) =>
  (await readdir(dir, { recursive: true }).catch(() => [] as string[])).map(String);

describe.skipIf(process.platform === 'win32')(
  'kill -9 of Dubdesk while its ffmpeg extracts (skipped on Windows: no process groups, no ps)',
  () => {
    it('the restart stops the stale ffmpeg before its own starts; the job completes, paid once, no .part left', async () => {
      const s = await startSandbox({ pipelineSeconds: 1, balance: 100_000 });
      sb = s;
      const work = tempDir('dubdesk-crash-ffmpeg-');
      const home = join(work, 'home');
      const out = join(work, 'out');
      const talks = join(work, 'talks');
      mkdirSync(talks);
      // Eight minutes of MP2 sound: re-encoded to AAC on the way out, long enough to outlive the kill.
      const source = join(talks, 'long lecture ü.mkv');
      copyFileSync(videoMatroska(480, 'long-lecture.mkv'), source);
      const env = { ...envFor(s, home), DUBDESK_TOOL_HOST: 'off' };
      const added = await runCli(['add', source, '--to', 'es', '--out', out, '--send', 'audio'], env);
      expect(added.code, added.stderr).toBe(0);

      const first = startCli(['run', '--until-done', '--poll-interval', '0.1'], env);
      const stale = await vi.waitFor(
        () => {
          const [tool] = ffmpegsUnder(home);
          if (!tool) throw new Error('no ffmpeg writing under the data folder yet');
          return tool;
        },
        { timeout: 120_000, interval: 20 },
      );
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
      const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
        jobs: { state: string }[];
      };
      expect(status.jobs.map((j) => j.state)).toEqual(['completed']);
      expect(startedDubs(s)).toHaveLength(1);
      expect(s.state.ledger).toHaveLength(1);
      expect((await files(out)).filter((f) => f.endsWith('.part'))).toEqual([]);
      expect((await files(join(home, 'staging'))).filter((f) => f.endsWith('.part'))).toEqual([]);
    }, 300_000);
  },
);
