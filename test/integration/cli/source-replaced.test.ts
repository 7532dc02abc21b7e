/**
 * A file replaced after it was added and before its turn came (re-exported under the same name, longer):
 * the job waits for it to settle and then sends it. Its sound must not be cut at the length the add read
 * (the estimate of the old file), leaving a dub of the first seconds padded with silence under a picture
 * that is not the one estimated. A longer cut costs more than the user agreed to: the job stops and says so.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { talkVideo } from '../../helpers/deliver-media';
import { tempDir } from '../../helpers/temp-dir';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

const Status = z.object({
  jobs: z.array(
    z.object({
      state: z.string(),
      error: z.object({ message: z.string() }).nullable(),
      qc: z.object({ problems: z.array(z.object({ code: z.string(), message: z.string() })) }).nullable(),
    }),
  ),
});

/** Adds `first` as `montage final.mp4`, puts `then` in its place, and runs the queue: the job's status. */
async function replacedThenRun(first: number, then: number) {
  const work = tempDir('dubdesk-replaced-');
  const source = join(work, 'montage final.mp4');
  copyFileSync(talkVideo(first, `cut-${first}s.mp4`), source);
  const env = envFor(sb, join(work, 'home'));
  const added = await runCli(['add', source, '--to', 'es', '--send', 'audio'], env, work);
  expect(added.code, added.stderr).toBe(0);
  // The editor exports another cut over it.
  copyFileSync(talkVideo(then, `cut-${then}s.mp4`), source);
  const run = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env, work);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  const [job] = Status.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout)).jobs;
  return { source, job };
}

describe('a source replaced by another cut between its add and its turn', () => {
  it('longer: is not sent, and says it now costs more than its estimate (not dubbed cut at the old length)', async () => {
    const { source, job } = await replacedThenRun(3, 9);
    expect(job?.state).toBe('failed');
    expect(job?.error?.message).toContain(`${source} changed since it was added`);
    expect(job?.error?.message).toMatch(
      /now plays 9\.\d s, 10 credits a language instead of 4; nothing was sent/,
    );
  });

  it('shorter: is dubbed whole at its new length, which its QC finds right', async () => {
    const { job } = await replacedThenRun(9, 3);
    expect(job?.state).toBe('completed');
    expect(job?.qc?.problems.filter((p) => p.code === 'length')).toEqual([]);
  });
});
