/**
 * A file replaced after it was added and before its turn came (re-exported under the same name, longer):
 * the job waits for it to settle and then sends it. Its sound must not be cut at the length the add read
 * (the estimate of the old file), leaving a dub of the first seconds padded with silence under a picture
 * that is not the one estimated. Either the job stops and says the file changed (add it again, to see what
 * it costs now), or its whole sound is dubbed.
 *
 * Left failing for the lead: the fix touches the job's life (what a changed source does to its estimate,
 * its identity and pay-once), see the helper's report.
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

describe('a source replaced by a longer one between its add and its turn', () => {
  it('is not dubbed cut at the old length and padded with silence', async () => {
    const work = tempDir('dubdesk-replaced-');
    const source = join(work, 'montage final.mp4');
    copyFileSync(talkVideo(3, 'cut-3s.mp4'), source);
    const env = envFor(sb, join(work, 'home'));
    const added = await runCli(['add', source, '--to', 'es', '--send', 'audio'], env, work);
    expect(added.code, added.stderr).toBe(0);
    // The editor exports the final cut over it, three times as long.
    copyFileSync(talkVideo(9, 'cut-9s.mp4'), source);

    const run = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env, work);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const [job] = Status.parse(JSON.parse((await runCli(['status', '--json'], env)).stdout)).jobs;
    if (job?.state === 'failed') {
      expect(job.error?.message).toContain(`${source} changed since it was added`);
      return;
    }
    expect(job?.state).toBe('completed');
    expect(job?.qc?.problems.filter((p) => p.code === 'length')).toEqual([]);
  });
});
