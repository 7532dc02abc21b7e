/**
 * `dubdesk` spawns ffmpeg from a small helper process (the tool host), started at its first ffmpeg. A kill -9
 * of Dubdesk must leave neither the host nor its ffmpeg running; a kill -9 of the host must fail only the
 * step under way, which is tried again with a new host: the job completes, paid once, no `.part` left.
 * A real `dubdesk run`, a real eight-minute extraction, real kills, watched with `ps` as a user would.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { videoMatroska } from '../../helpers/media';
import { alive, ffmpegsUnder, parentOf, type Tool } from '../../helpers/processes';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const files = async (dir: string) =>
  (await readdir(dir, { recursive: true }).catch(() => [] as string[])).map(String);

/** A job whose sound is taken from an eight-minute video (re-encoded: long enough to outlive a kill). */
async function longExtraction() {
  const s = await startSandbox({ pipelineSeconds: 1, balance: 100_000 });
  sb = s;
  const work = tempDir('dubdesk-tool-host-crash-');
  const home = join(work, 'home');
  const out = join(work, 'out');
  const talks = join(work, 'talks');
  mkdirSync(talks);
  const source = join(talks, 'long lecture ü.mkv');
  copyFileSync(videoMatroska(480, 'long-lecture.mkv'), source);
  const env = envFor(s, home);
  const added = await runCli(['add', source, '--to', 'es', '--out', out, '--send', 'audio'], env);
  expect(added.code, added.stderr).toBe(0);
  return { s, home, out, env };
}

/** The ffmpeg writing under `home` once there is one. */
const extracting = (home: string, not: number[] = []) =>
  vi.waitFor(
    () => {
      const [tool] = ffmpegsUnder(home).filter((t) => !not.includes(t.pid));
      if (!tool) throw new Error('no ffmpeg writing under the data folder yet');
      return tool;
    },
    { timeout: 120_000, interval: 20 },
  );

/** The job completed, one dub started and charged, no `.part` anywhere. */
async function paidOnceAndWhole(run: Awaited<ReturnType<typeof longExtraction>>) {
  const status = JSON.parse((await runCli(['status', '--json'], run.env)).stdout) as {
    jobs: { state: string }[];
  };
  expect(status.jobs.map((j) => j.state)).toEqual(['completed']);
  expect(startedDubs(run.s)).toHaveLength(1);
  expect(run.s.state.ledger).toHaveLength(1);
  expect((await files(run.out)).filter((f) => f.endsWith('.part'))).toEqual([]);
  expect((await files(join(run.home, 'staging'))).filter((f) => f.endsWith('.part'))).toEqual([]);
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
