/**
 * `dubdesk` spawns ffmpeg from a small helper process (the tool host), started at its first ffmpeg. A kill -9
 * of Dubdesk must leave neither the host nor its ffmpeg running; a kill -9 of the host must fail only the
 * step under way, which is tried again with a new host: the job completes, paid once, no `.part` left.
 * A real `dubdesk run`, a real eight-minute extraction, real kills, watched with `ps` as a user would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/server';
import { runCli, startCli } from '../../helpers/cli';
import { extracting, longExtraction as withLongJob, paidOnceAndWhole } from '../../helpers/long-extraction';
import { alive, ffmpegsUnder, parentOf, type Tool } from '../../helpers/processes';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

async function longExtraction() {
  const run = await withLongJob('dubdesk-tool-host-crash-');
  sb = run.s;
  return run;
}

describe.skipIf(process.platform === 'win32')(
  'the tool host under kill -9 (skipped on Windows: no process groups, no ps)',
  () => {
    it('kill -9 of Dubdesk: neither its host nor its ffmpeg outlives it; the restart completes, paid once', async () => {
      const run = await longExtraction();
      const first = startCli(['run', '--until-done', '--poll-interval', '0.1'], run.env);
      const tool: Tool = await extracting(run.home);
      const host = parentOf(tool.pid);
      expect(host, "the ffmpeg is the host's, not dubdesk's").not.toBe(first.child.pid);
      expect(alive(host)).toBe(true);

      first.child.kill('SIGKILL');
      await first.done;
      await vi.waitFor(
        () => {
          expect(alive(tool.pid), `ffmpeg outlived Dubdesk: ${tool.args}`).toBe(false);
          expect(alive(host), 'the tool host outlived Dubdesk').toBe(false);
        },
        { timeout: 10_000, interval: 20 },
      );

      const second = await runCli(['run', '--until-done', '--poll-interval', '0.1'], run.env);
      expect(second.code, second.stderr).toBe(0);
      await paidOnceAndWhole(run);
    }, 300_000);

    it('kill -9 of the host: the extraction is tried again with a new one; the job completes, paid once', async () => {
      const run = await longExtraction();
      const running = startCli(['run', '--until-done', '--poll-interval', '0.1'], run.env);
      const tool = await extracting(run.home);
      const host = parentOf(tool.pid);
      expect(host).not.toBe(running.child.pid);

      process.kill(host, 'SIGKILL');
      const next = await extracting(run.home, [tool.pid]);
      expect(alive(tool.pid), 'the first ffmpeg writes beside the second').toBe(false);
      expect(parentOf(next.pid)).not.toBe(host);

      const final = await running.done;
      expect(final.code, final.stderr).toBe(0);
      await paidOnceAndWhole(run);
      expect(ffmpegsUnder(run.home)).toEqual([]);
    }, 300_000);
  },
);
