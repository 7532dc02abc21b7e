import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

async function jobs(env: NodeJS.ProcessEnv): Promise<{ state: string; error: string | null }[]> {
  return (JSON.parse((await runCli(['status', '--json'], env)).stdout) as { jobs: [] }).jobs;
}

describe('a FIFO where a video should be', () => {
  it('given to add or estimate, is refused without blocking (nobody ever writes to it)', async () => {
    const work = tempDir('dubdesk-fifo-');
    const env = envFor(sb, join(work, 'home'));
    const fifo = join(work, 'clip.mp4');
    mkfifo(fifo);
    const add = await runCli(['add', fifo, '--to', 'es'], env);
    expect(add.code).toBe(2);
    expect(add.stderr).toContain(`skipped: ${fifo}: not a regular file. Name a video or audio file.`);
    const estimate = await runCli(['estimate', fifo, '--to', 'es'], env);
    expect(estimate.code).toBe(2);
    expect(estimate.stderr).toContain(`skipped: ${fifo}: not a regular file.`);
    expect(await jobs(env)).toEqual([]);
  });

  it('put in place of a queued source, fails that job clearly; the queue lock is released for the next run', async () => {
    const work = tempDir('dubdesk-fifo-');
    const env = envFor(sb, join(work, 'home'));
    const source = join(work, 'swapped.mp4');
    copyFileSync(videoMp4(2, 'fifo-src.mp4'), source);
    expect((await runCli(['add', source, '--to', 'es', '--out', join(work, 'out')], env)).code).toBe(0);
    rmSync(source);
    mkfifo(source);

    const r = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `✗ #1 swapped.mp4 → es: ${source}: no longer a regular file (a pipe, device or folder took its place).`,
    );
    expect(existsSync(join(work, 'home', 'run.lock'))).toBe(false);

    rmSync(source);
    copyFileSync(videoMp4(2, 'fifo-src.mp4'), source);
    expect((await runCli(['retry', '--failed'], env)).code).toBe(0);
    const again = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(again.code, again.stderr).toBe(0);
    expect((await jobs(env)).map((j) => j.state)).toEqual(['completed']);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'leaves %s working: the run stops at once (exit 130)',
    async (signal) => {
      const work = tempDir('dubdesk-fifo-');
      const env = envFor(sb, join(work, 'home'));
      const source = join(work, 'blocked.mp4');
      copyFileSync(videoMp4(2, 'fifo-src.mp4'), source);
      expect((await runCli(['add', source, '--to', 'es'], env)).code).toBe(0);
      rmSync(source);
      mkfifo(source);
      const { child, done } = startCli(['run', '--poll-interval', '0.1'], env);
      let seen = '';
      const onData = (d: Buffer) => {
        seen += d.toString();
        if (!seen.includes('✗ #1')) return;
        child.stderr?.off('data', onData);
        child.kill(signal);
      };
      child.stderr?.on('data', onData);
      const r = await done;
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toContain('This run: 0 completed, 1 failed.');
      // The lock went with it: the next command that needs it gets it.
      expect((await runCli(['run', '--until-done'], env)).code).toBe(0);
    },
  );
});
