/**
 * The kill -9 tests' world around ffmpeg: a job whose sound is taken from an eight-minute video (re-encoded
 * on the way out, long enough to outlive a kill), the ffmpeg writing it found with `ps`, and what must hold
 * once the run is over: the job completed, one dub started and charged, no `.part` anywhere.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import { envFor, runCli } from './cli';
import { videoMatroska } from './media';
import { ffmpegsUnder, type Tool } from './processes';
import { startedDubs } from './started-dubs';
import { tempDir } from './temp-dir';

/** Every path under `dir`, none when it is not there. */
export const filesUnder = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true }).catch(() => [] as string[])).map(String);

export interface LongExtraction {
  s: Sandbox;
  home: string;
  out: string;
  env: NodeJS.ProcessEnv;
}

/** A sandbox and a home with the long job added (not yet run); `extraEnv` over the CLI's environment. */
export async function longExtraction(
  prefix: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<LongExtraction> {
  // The service's own work on the eight minutes (a dub made from the upload with its ffmpeg: 12 CPU s a test) is
  // not what these tests watch: its dubs are copies of the upload, which the job rebuilds and checks as any dub.
  const s = await startSandbox({ pipelineSeconds: 1, balance: 100_000, ffmpeg: false });
  const work = tempDir(prefix);
  const home = join(work, 'home');
  const out = join(work, 'out');
  const talks = join(work, 'talks');
  mkdirSync(talks);
  const source = join(talks, 'long lecture ü.mkv');
  copyFileSync(videoMatroska(480, 'long-lecture.mkv'), source);
  const env = { ...envFor(s, home), ...extraEnv };
  const added = await runCli(['add', source, '--to', 'es', '--out', out, '--send', 'audio'], env);
  expect(added.code, added.stderr).toBe(0);
  return { s, home, out, env };
}

/** The ffmpeg writing under `home` once there is one (not one of `not`). */
export const extracting = (home: string, not: number[] = [], interval = 20): Promise<Tool> =>
  vi.waitFor(
    () => {
      const [tool] = ffmpegsUnder(home).filter((t) => !not.includes(t.pid));
      if (!tool) throw new Error('no ffmpeg writing under the data folder yet');
      return tool;
    },
    { timeout: 120_000, interval },
  );

/** The job completed, one dub started and charged, no `.part` anywhere. */
export async function paidOnceAndWhole(run: LongExtraction): Promise<void> {
  const status = JSON.parse((await runCli(['status', '--json'], run.env)).stdout) as {
    jobs: { state: string }[];
  };
  expect(status.jobs.map((j) => j.state)).toEqual(['completed']);
  expect(startedDubs(run.s)).toHaveLength(1);
  expect(run.s.state.ledger).toHaveLength(1);
  expect((await filesUnder(run.out)).filter((f) => f.endsWith('.part'))).toEqual([]);
  expect((await filesUnder(join(run.home, 'staging'))).filter((f) => f.endsWith('.part'))).toEqual([]);
}
