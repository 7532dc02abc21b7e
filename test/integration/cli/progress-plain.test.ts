/**
 * Progress written to a pipe (a log, CI, `| tee`): one line per change, and a finished line for every job of
 * the batch, even when the engine tells many changes at once as "list again" instead of job by job.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const FILES = 12;
const LANGS = ['es', 'fr', 'de'];

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.5 });
});
afterAll(() => sb.stop());

describe('progress in a pipe', () => {
  it('36 jobs polled together: a finished line for each job, once', async () => {
    const work = tempDir('dubdesk-plain-');
    const files = Array.from({ length: FILES }, (_, i) => {
      const path = join(work, `clip ${i + 1}.mp4`);
      copyFileSync(videoMp4(2, 'plain-src.mp4'), path);
      return path;
    });
    const env = { ...envFor(sb, join(work, 'home')), DUBDESK_RETRY_BASE_MS: '20' };
    const args = ['dub', ...files, '--to', LANGS.join(','), '--out', join(work, 'out')];
    const r = await runCli([...args, '--poll-interval', '0.2', '--concurrency', '4'], env, work);
    expect(r.code, r.stderr).toBe(0);
    // The live lines, before the summary repeats the failed ones: each job's ✓ line once.
    const live = r.stderr.split('\nThis batch:')[0] ?? '';
    const finished = live
      .split('\n')
      .map((l) => /^✓ #(\d+) /.exec(l)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    expect(finished).toEqual(Array.from({ length: FILES * LANGS.length }, (_, i) => i + 1));
  }, 120_000);
});
