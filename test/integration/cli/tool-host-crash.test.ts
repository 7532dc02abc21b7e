/**
 * `dubdesk` spawns ffmpeg from a small helper process (the tool host), started at its first ffmpeg. A kill -9
 * of Dubdesk must leave neither the host nor its ffmpeg running; a kill -9 of the host must fail only the
 * step under way, which is tried again with a new host: the job completes, paid once, no `.part` left.
 * A real `dubdesk run`, a real eight-minute extraction, real kills, watched with `ps` as a user would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/server';
import { startCli } from '../../helpers/cli';
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
    // One long job for both kills (each a full extraction, dub and rebuild of eight minutes): Dubdesk killed
    // during its first run, then the restart's own host killed under its extraction.
    it('kill -9 of Dubdesk: neither its host nor its ffmpeg outlives it; kill -9 of the restart’s host: the extraction is tried again with a new one; the job completes, paid once', async () => {
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

      const restart = startCli(['run', '--until-done', '--poll-interval', '0.1'], run.env);
      const again = await extracting(run.home, [tool.pid]);
      const restartHost = parentOf(again.pid);
      expect(restartHost).not.toBe(restart.child.pid);
      expect(restartHost).not.toBe(host);

      process.kill(restartHost, 'SIGKILL');
      const next = await extracting(run.home, [tool.pid, again.pid]);
      expect(alive(again.pid), 'the first ffmpeg writes beside the second').toBe(false);
      expect(parentOf(next.pid)).not.toBe(restartHost);

      const final = await restart.done;
      expect(final.code, final.stderr).toBe(0);
      await paidOnceAndWhole(run);
      expect(ffmpegsUnder(run.home)).toEqual([]);
    }, 300_000);
  },
);
