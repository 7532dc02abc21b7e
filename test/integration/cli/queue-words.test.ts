import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ExitCode } from '../../../electron/cli/exit-codes';
import { JobViewSchema } from '../../../shared/contract/jobs';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

/**
 * What the CLI says about the queue's money and its steering, as a new user met it: the budget's refusal
 * and its way out, flags refused before any work, a preset's whole confirmation, when-done's exit code,
 * and `status` in the queue's order.
 */
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2, balance: 1_000_000 });
});
afterAll(() => sb.stop());

/** A source of its own content, under a name with a space and a non-ASCII letter. */
function sourceOf(name: string, seconds: number): string {
  const path = join(tempDir('dubdesk-src-'), name);
  copyFileSync(videoMp4(seconds, `words-${seconds}-${name}`), path);
  return path;
}

const StatusJobs = z.object({ jobs: z.array(JobViewSchema) });

describe('the monthly budget, in words that say the way out', () => {
  it('spend --budget refuses what is no whole number of credits, naming the flag, in its own words', async () => {
    const env = envFor(sb, tempDir());
    for (const bad of ['1e99', '-5', 'abc', '1.5', '']) {
      const r = await runCli(['spend', '--budget', bad], env);
      expect(r.code, `--budget ${bad}`).toBe(ExitCode.Usage);
      expect(r.stderr, `--budget ${bad}`).toContain('--budget');
      expect(r.stderr, `--budget ${bad}`).toMatch(/a whole number of credits from 0 to [\d,]+, or none/);
      expect(r.stderr, `--budget ${bad}`).not.toMatch(/expected int|Too big|monthlyBudget/);
    }
    expect((await runCli(['spend', '--budget', '40'], env)).stdout).toContain('Monthly budget 40');
    const none = await runCli(['spend', '--budget', 'none'], env);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).not.toContain('Monthly budget');
  });

  it('add past the budget says spent, this batch and budget, and that --budget or --force is the way out', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    expect((await runCli(['spend', '--budget', '5'], env)).code).toBe(0);
    const clip = sourceOf('budget clip ñ.mp4', 3);
    const refused = await runCli(['add', clip, '--to', 'es,fr', '--out', join(home, 'out')], env);
    expect(refused.code).toBe(ExitCode.Credits);
    expect(refused.stderr).not.toContain('Add credits');
    expect(refused.stderr).toMatch(/this batch needs about \d+ credits/);
    expect(refused.stderr).toMatch(
      /past the monthly budget of 5: with the 0 spent this month that is \d+, \d+ over/,
    );
    expect(refused.stderr).toContain('dubdesk spend --budget');
    expect(refused.stderr).toContain('--force');

    const forced = await runCli(['add', clip, '--to', 'es,fr', '--force', '--out', join(home, 'out')], env);
    expect(forced.code, forced.stderr).toBe(0);
    const jobs = StatusJobs.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout)).jobs;
    const credits = jobs.reduce((n, j) => n + (j.estimatedCredits ?? 0), 0);
    const past = /This batch goes past the monthly budget by (\d+) credits?/.exec(forced.stderr);
    expect(Number(past?.[1])).toBe(credits - 5);
  });
});

describe('flags refused before any work, and what a preset holds', () => {
  it('add --preset with no such preset says so before reading a file, naming the presets there are', async () => {
    const env = envFor(sb, tempDir());
    expect((await runCli(['preset', 'save', 'euro', '--to', 'de,it'], env)).code).toBe(0);
    const r = await runCli(['add', '--preset', 'nosuch', sourceOf('clip.mp4', 1)], env);
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.stderr).toContain('there is no preset called “nosuch”');
    expect(r.stderr).toContain('The presets are: euro.');
    expect(r.stderr).not.toContain('Reading');
    expect(r.stderr).not.toContain('sandbox');
    // A default sound the batch does not have is refused from the flags alone, before a file is read.
    const sound = await runCli(['add', sourceOf('clip.mp4', 1), '--to', 'es', '--default-audio', 'de'], env);
    expect(sound.code).toBe(ExitCode.Usage);
    expect(sound.stderr).toContain("the default sound 'de' is not one of this batch's languages (es)");
    expect(sound.stderr).not.toContain('Reading');
  });

  it('--when-done refuses an empty or blank command before anything is queued', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    for (const blank of ['', '   ']) {
      const r = await runCli(['dub', sourceOf('blank.mp4', 1), '--to', 'es', '--when-done', blank], env);
      expect(r.code, r.stderr).toBe(ExitCode.Usage);
      expect(r.stderr).toContain('--when-done');
      expect(r.stderr).toContain('a command to run');
      expect(r.stderr).not.toContain('Reading');
    }
    const run = await runCli(['run', '--until-done', '--when-done', ''], env);
    expect(run.code).toBe(ExitCode.Usage);
    expect((await runCli(['status', '--json'], env)).stdout).toContain('"jobs": []');
  });

  it('preset save repeats everything the preset holds: package, subtitles, default sound, loudness, upload once', async () => {
    const env = envFor(sb, tempDir());
    const r = await runCli(
      [
        'preset',
        'save',
        'full kit',
        '--to',
        'de,it',
        '--package',
        'mkv',
        '--subtitles',
        'vtt,srt',
        '--default-audio',
        'de',
        '--loudness',
        'web',
        '--no-upload-once',
      ],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Saved preset full kit: de, it');
    for (const said of ['one MKV with every language', 'subtitles vtt, srt', 'starts in de', 'web loudness'])
      expect(r.stderr).toContain(said);
    expect(r.stderr).toContain('uploads once per language');
  });
});

describe('when-done and the exit code, status in the queue order', () => {
  it('a failing --when-done command makes dub exit 9 after a batch that went well, and leaves a failed batch its own code', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    const clip = sourceOf('when done.mp4', 1);
    const dub = (file: string, whenDone: string, ...more: string[]) =>
      runCli(
        [
          'dub',
          file,
          ...more,
          '--to',
          'es',
          '--out',
          join(home, 'out'),
          '--poll-interval',
          '0.1',
          '--when-done',
          whenDone,
        ],
        env,
      );
    const r = await dub(clip, 'exit 3');
    expect(r.stderr).toContain('the --when-done command exit 3 failed');
    expect(r.code).toBe(ExitCode.WhenDoneFailed);
    expect(ExitCode.WhenDoneFailed).toBe(9);
    const fine = await dub(sourceOf('fine.mp4', 1), 'true');
    expect(fine.code, fine.stderr).toBe(0);
    // A batch that did not go well (a file skipped) keeps its own code; the command's failure is still said.
    const missing = join(home, 'no such file.mp4');
    const skipped = await dub(sourceOf('other.mp4', 2), 'exit 3', missing);
    expect(skipped.stderr).toContain('the --when-done command exit 3 failed');
    expect(skipped.code).toBe(ExitCode.Failed);
  });

  it('status lists the jobs in the order the worker takes them, as the window does', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    expect((await runCli(['pause'], env)).code).toBe(0);
    const files = [sourceOf('one.mp4', 1), sourceOf('two.mp4', 2), sourceOf('three ñ.mp4', 3)];
    expect((await runCli(['add', ...files, '--to', 'es', '--out', join(home, 'out')], env)).code).toBe(0);
    const byId = StatusJobs.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout)).jobs;
    const third = byId.find((j) => j.sourceName === 'three ñ.mp4');
    expect((await runCli(['move', String(third?.id), '--top'], env)).code).toBe(0);
    const table = await runCli(['status'], env);
    expect(table.code, table.stderr).toBe(0);
    const names = ['three ñ.mp4', 'one.mp4', 'two.mp4'].map((n) => table.stdout.indexOf(n));
    expect(names.every((at) => at >= 0)).toBe(true);
    expect([...names].sort((a, b) => a - b)).toEqual(names);
    // --json keeps the order it always had (by id, the order jobs were added): what scripts relied on.
    const json = StatusJobs.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout)).jobs;
    expect(json.map((j) => j.id)).toEqual(byId.map((j) => j.id));
  });
});
