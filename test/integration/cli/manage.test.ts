import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { videoMp4 } from '../../helpers/media';
import { CLI, envFor, runCli } from '../../helpers/cli';
import { engineFor, whenJob } from '../../helpers/engine';
import { tempDir } from '../../helpers/temp-dir';
import { running } from '../../helpers/watch';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

const cleanEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DUBDESK_')));

function login(
  args: string[],
  key: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'login', ...args], {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(`${key}\n`);
  });
}

describe('dubdesk login, cancel and retry', () => {
  it('stores a key read from stdin (owner-only) and later commands use it', async () => {
    const home = tempDir();
    const env = { ...cleanEnv(), DUBDESK_HOME: home };
    const bad = await login(['--base-url', sb.baseUrl], 'wrong-key', env);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('nothing was saved');
    const ok = await login(['--base-url', sb.baseUrl, '--legacy-url', sb.legacyUrl], sb.account.apiKey, env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(statSync(join(home, 'service.json')).mode & 0o777).toBe(0o600);
    const me = await runCli(['me', '--json'], env);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ id: sb.account.id });
    expect(me.stderr).not.toContain('built-in sandbox');
  });

  it('cancels a job, retries it, and refuses ids that do not exist', async () => {
    const home = tempDir();
    const env = envFor(sb, home);
    expect(
      (await runCli(['add', videoMp4(2, 'm.mp4'), '--to', 'es,fr', '--out', join(home, 'out')], env)).code,
    ).toBe(0);
    const canceled = await runCli(['cancel', '2'], env);
    expect(canceled.code).toBe(0);
    expect(canceled.stderr).toContain('Canceled #2 m.mp4 → fr');
    expect((await runCli(['cancel', '2'], env)).code).toBe(2);
    expect((await runCli(['run', '--until-done', '--poll-interval', '0.2'], env)).code).toBe(0);
    let status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
      jobs: { state: string }[];
    };
    expect(status.jobs.map((j) => j.state)).toEqual(['completed', 'canceled']);

    expect((await runCli(['retry', '--failed'], env)).stderr).toContain('No failed jobs.');
    expect((await runCli(['retry', '2'], env)).code).toBe(0);
    expect((await runCli(['run', '--until-done', '--poll-interval', '0.2'], env)).code).toBe(0);
    status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as { jobs: { state: string }[] };
    expect(status.jobs.map((j) => j.state)).toEqual(['completed', 'completed']);

    const missing = await runCli(['retry', '99'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no job 99');
    expect((await runCli(['retry'], env)).code).toBe(2);
  });

  it('canceling a job whose dub the service started says the service may still charge for it', async () => {
    const slow = await startSandbox({ ffmpeg: false, pipelineSeconds: 60 });
    try {
      const home = tempDir();
      const env = envFor(slow, home);
      expect((await runCli(['add', videoMp4(2, 'late.mp4'), '--to', 'es'], env)).code).toBe(0);
      // Worked in-process until the service has the dub (the CLI's run would wait for its end).
      const host = engineFor(slow, home);
      const processing = whenJob(host.api, (j) => j.state === 'processing');
      const run = running(host);
      await processing;
      await run.stop();
      await host.close();
      const canceled = await runCli(['cancel', '1'], env);
      expect(canceled.code, canceled.stderr).toBe(0);
      expect(canceled.stderr).toContain('Canceled #1 late.mp4 → es');
      expect(canceled.stderr).toMatch(
        /Job #1's dub was already started \(or being started\) on the service.*may still charge/,
      );
      const queued = await runCli(['cancel', '--all'], env);
      expect(queued.stderr).not.toContain('may still charge');
    } finally {
      await slow.stop();
    }
  });
});
