import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CLI, envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const run = promisify(execFile);
const has = (tool: string) => spawnSync(tool, ['-V']).status === 0;
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

describe.skipIf(!has('tmux'))('status --watch in a real terminal 40 columns wide (tmux)', () => {
  it('redraws in place as another process works the queue, fits the width, and Ctrl+C ends it with 0', async () => {
    const home = tempDir('dubdesk-watch-tty-');
    const env = envFor(sb, home);
    const names = ['watched in a terminal.mp4', 'ünïcode näme.mp4'];
    const files = names.map((n, i) => videoMp4(i + 1, n));
    expect((await runCli(['add', ...files, '--to', 'es', '--out', join(home, 'out')], env)).code).toBe(0);
    const command = [process.execPath, CLI, 'status', '--watch'].map(quote).join(' ');
    const tmux = (...args: string[]) => run('tmux', ['-L', `dubdesk-watch-${process.pid}`, ...args], { env });
    await tmux('new-session', '-d', '-x', '40', '-y', '20', `${command}; echo "EXIT=$?"; sleep 600`);
    // A command killed by the signal takes its shell and the session with it: no screen, no EXIT line.
    const screen = async () =>
      (await tmux('capture-pane', '-p').catch(() => ({ stdout: 'EXIT=none: the session ended' }))).stdout;
    try {
      await vi.waitFor(async () => expect(await screen()).toMatch(/0\/2 done/), { timeout: 30_000 });
      const worked = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
      expect(worked.code, worked.stderr).toBe(0);
      // Heard from the other process: both finished lines and the totals, each on its own line. A dub is
      // done before its QC is (the totals count it first, its line says it is being checked meanwhile).
      const finished = async () => (await screen()).split('\n').filter((l) => /^✓ #\d+ /.test(l));
      await vi.waitFor(async () => expect(await finished()).toHaveLength(2), { timeout: 30_000 });
      expect(await screen()).toMatch(/2\/2 done/);
      const shown = (await screen()).split('\n').filter((l) => l.trim());
      expect(shown.every((l) => [...l].length <= 40)).toBe(true);
      await tmux('send-keys', 'C-c');
      await vi.waitFor(async () => expect(await screen()).toMatch(/EXIT=/), { timeout: 30_000 });
      expect(await screen()).toContain('EXIT=0');
    } finally {
      await tmux('kill-server').catch(() => null);
    }
  }, 120_000);
});
