/**
 * `dubdesk dub "long twenty.mp4" --to es,fr` on a 2.0 GiB source (issue 34): the audio path sends its sound
 * (a few KiB here), so the v2 upload limit is no reason to skip it. `--send file` is refused, naming the way
 * that fits. The source is a real MP4 with a sparse tail: ffprobe and ffmpeg read it as a user's big file.
 */
import { copyFile, truncate } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMd5, videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.2, balance: 100_000 });
});
afterAll(() => sb.stop());

/** A user's shell: nothing says which way to send, so the default (the sound alone) applies. */
function userEnv(home: string): NodeJS.ProcessEnv {
  const { DUBDESK_SEND: _suiteDefault, ...env } = envFor(sb, home);
  return env;
}

async function bigVideo(work: string): Promise<string> {
  const path = join(work, 'long twenty.mp4');
  await copyFile(videoMp4(4, 'cli-big-source-4s.mp4'), path);
  await truncate(path, 2_132_043_110);
  return path;
}

describe('a 2.0 GiB source on the audio path', () => {
  it('estimate counts it and dub dubs it, sending only its sound', async () => {
    const work = tempDir('dubdesk-big-');
    const env = userEnv(join(work, 'home'));
    const big = await bigVideo(work);
    const e = await runCli(['estimate', 'long twenty.mp4', '--to', 'es,fr'], env, work);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stderr).not.toContain('skipped');
    expect(e.stdout).toMatch(/long twenty\.mp4\s+0:04\s+8$/m);
    // Not "instead of 2.0 GiB": the whole file could not have been sent at all.
    expect(e.stdout).toMatch(/\nSends [\d.]+ KiB \(audio\); the whole file is over the v2 upload limit\.\n/);

    const r = await runCli(
      ['dub', 'long twenty.mp4', '--to', 'es,fr', '--out', 'out', '--poll-interval', '0.1'],
      env,
      work,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/2 completed, 0 failed/);
    for (const lang of ['es', 'fr']) {
      const made = join(work, 'out', `long twenty.${lang}.mp4`);
      expect(existsSync(made)).toBe(true);
      expect(videoMd5(made)).toBe(videoMd5(big));
    }
  });

  it('--send file is skipped, saying the sound alone would fit', async () => {
    const work = tempDir('dubdesk-big-file-');
    const env = userEnv(join(work, 'home'));
    const big = await bigVideo(work);
    const r = await runCli(['estimate', 'long twenty.mp4', '--to', 'es,fr', '--send', 'file'], env, work);
    expect(r.stderr).toContain(
      `skipped: ${big}: 2.0 GiB (2,132,043,110 bytes) is over the 1.0 GiB upload limit of the v2 API. Send only its sound instead (--send audio, or "Only the sound" in the Send choice), or split or compress it first.`,
    );
  });
});
