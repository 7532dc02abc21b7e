/**
 * "Choose another output folder, then retry" (issue 21 item 8): `retry --out DIR` moves what the job
 * already saved, so all its results end up in one folder; adding the failed file again with `--out` does
 * the same, and reports no credits for a dub the service already charged.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  // Long enough a pipeline to pull the output folder away while a dub is made.
  sb = await startSandbox({ pipelineSeconds: 3 });
});
afterAll(() => sb.stop());

interface JobJson {
  id: number;
  source: string;
  state: string;
  outDir: string;
  creditsCharged: number | null;
  outputs: { path: string }[];
}

const resultsOf = async (env: NodeJS.ProcessEnv) =>
  (JSON.parse((await runCli(['status', '--json'], env)).stdout) as { jobs: JobJson[] }).jobs[0];

/**
 * A job that fails after the service charged it: its output folder became a file while the dub was being
 * made (a drive unplugged, a folder renamed), so its results have nowhere to go.
 */
async function failedAfterCharge(
  name: string,
): Promise<{ env: NodeJS.ProcessEnv; video: string; first: string; job: JobJson }> {
  const home = tempDir();
  const env = envFor(sb, home);
  const video = videoMp4(2, name);
  const first = join(home, 'first');
  const add = await runCli(['add', video, '--to', 'es', '--out', first], env);
  expect(add.code, add.stderr).toBe(0);
  const run = startCli(['run', '--until-done'], env);
  await vi.waitFor(() => expect([...sb.state.dubs.values()].some((d) => d.name === name)).toBe(true), {
    timeout: 30_000,
  });
  rmSync(first, { recursive: true });
  writeFileSync(first, 'not a folder');
  const ran = await run.done;
  expect(ran.code, ran.stderr).not.toBe(0);
  rmSync(first);
  const job = await resultsOf(env);
  if (!job) throw new Error(`no job: ${ran.stderr}`);
  expect(job.state).toBe('failed');
  expect(job.creditsCharged).toBeGreaterThan(0);
  return { env, video, first, job };
}

describe('retry into another folder', () => {
  it('retry --out DIR: every result of the job all land in the new folder, and it is not charged again', async () => {
    const { env, first, job } = await failedAfterCharge('moved-along.mp4');
    const second = join(tempDir(), 'second');
    const charges = sb.state.ledger.length;
    const retry = await runCli(['retry', String(job.id), '--out', second], env);
    expect(retry.code, retry.stderr).toBe(0);
    const run = await runCli(['run', '--until-done'], env);
    expect(run.code, run.stderr).toBe(0);
    const done = await resultsOf(env);
    expect(done?.state).toBe('completed');
    expect(done?.outDir).toBe(second);
    expect(done?.outputs.map((o) => dirname(o.path))).toEqual(done?.outputs.map(() => second));
    expect(readdirSync(second).sort()).toEqual(done?.outputs.map((o) => basename(o.path)).sort());
    expect(existsSync(first)).toBe(false);
    // Charged once: the retry only fetched the results again.
    expect(sb.state.ledger.length).toBe(charges);
  });

  it('retry --out DIR of a completed job moves its results there, at no charge; gone results get the command', async () => {
    const { env, job } = await failedAfterCharge('completed-moved.mp4');
    const second = join(tempDir(), 'second');
    expect((await runCli(['retry', String(job.id), '--out', second], env)).code).toBe(0);
    expect((await runCli(['run', '--until-done'], env)).code).toBe(0);
    const charges = sb.state.ledger.length;
    const done = await resultsOf(env);
    expect(done?.state).toBe('completed');
    const names = done?.outputs.map((o) => basename(o.path)).sort();

    // Not dubbed again (pay once): what the user wants is its files in the new folder.
    const third = join(tempDir(), 'third');
    const moved = await runCli(['retry', String(job.id), '--out', third], env);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(
      /Moved the results of #\d+ completed-moved\.mp4 → es to .*third.*nothing is dubbed or charged again/,
    );
    expect(moved.stderr).not.toContain('dubdesk run');
    const after = await resultsOf(env);
    expect(after).toMatchObject({ state: 'completed', outDir: third });
    expect(after?.outputs.map((o) => dirname(o.path))).toEqual(after?.outputs.map(() => third));
    expect(readdirSync(third).sort()).toEqual(names);
    expect(readdirSync(second)).toEqual([]);
    expect(sb.state.ledger.length).toBe(charges);

    // Its files deleted by hand: nothing to move; refused with the exact command, and no folder is made.
    for (const o of after?.outputs ?? []) rmSync(o.path, { force: true });
    const fourth = join(tempDir(), 'fourth');
    const refused = await runCli(['retry', String(job.id), '--out', fourth], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no longer on disk');
    expect(refused.stderr).toContain(`dubdesk again ${job.id} --out '${fourth}'`);
    expect(existsSync(fourth)).toBe(false);
    // The command it prints does it: the same dub queued again, into that folder.
    const again = await runCli(['again', String(job.id), '--out', fourth], env);
    expect(again.stderr).toContain('Queued 1 dub again with its own choices');
    expect(again.code).toBe(0);
    expect(existsSync(fourth)).toBe(true);
  });

  it('adding the failed file again with --out: one folder, and "credits": 0 (nothing is charged)', async () => {
    const { env, video, first } = await failedAfterCharge('added-again.mp4');
    const second = join(tempDir(), 'second');
    const add = await runCli(['add', video, '--to', 'es', '--out', second, '--json'], env);
    expect(add.code, add.stderr).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ credits: 0 });
    const run = await runCli(['run', '--until-done'], env);
    expect(run.code, run.stderr).toBe(0);
    const done = await resultsOf(env);
    expect(done?.state).toBe('completed');
    expect(done?.outputs.map((o) => dirname(o.path))).toEqual(done?.outputs.map(() => second));
    expect(existsSync(first)).toBe(false);
  });

  it('a relative or unusable folder is refused with what to do', async () => {
    const { env, job } = await failedAfterCharge('refused.mp4');
    const file = join(tempDir(), 'a-file');
    await import('node:fs/promises').then((fs) => fs.writeFile(file, 'x'));
    const bad = await runCli(['retry', String(job.id), '--out', join(file, 'sub')], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('is a file, not a folder');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
