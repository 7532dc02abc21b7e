/**
 * Ctrl+C in a terminal while the built-in sandbox, inside `dubdesk run`, makes a long dub with its ffmpeg:
 * the command waited, silently, for that ffmpeg to finish (17 to 25 s for a new user's talk). It stops it
 * instead; the sandbox makes that dub again on its next start, its state kept, and charges it once.
 * The dub is made as long as the test likes: its ffmpeg, found at work, is held (SIGSTOP) until the command
 * has stopped or the test gives up, so a command that waits for it never exits by itself.
 */
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { StatusJson } from '../../../electron/cli/json-shapes';
import { CLI, runCli } from '../../helpers/cli';
import { videoMatroska } from '../../helpers/media';
import { alive, ffmpegsUnder, type Tool } from '../../helpers/processes';
import { tempDir } from '../../helpers/temp-dir';

const run = promisify(execFile);
const has = (tool: string) => spawnSync(tool, ['-V']).status === 0;
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

describe.skipIf(!has('tmux'))('Ctrl+C during the built-in sandbox’s long dub (tmux)', () => {
  it('exits without waiting for the dub; the next run makes it, the dub charged once', async () => {
    const work = tempDir('dubdesk-sandbox-stop-');
    const home = join(work, 'home');
    const plain = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DUBDESK_')));
    const env = { ...plain, DUBDESK_HOME: home };
    mkdirSync(join(work, 'talks'));
    const talk = join(work, 'talks', 'long talk.mkv');
    // Eight minutes: the sandbox's ffmpeg works on it for a few seconds, time to find it and hold it.
    copyFileSync(videoMatroska(480, 'long-lecture.mkv'), talk);
    const added = await runCli(['add', talk, '--to', 'es', '--out', 'out', '--send', 'file'], env, work);
    expect(added.code, added.stderr).toBe(0);

    const command = [process.execPath, CLI, 'run', '--until-done', '--poll-interval', '0.2']
      .map(quote)
      .join(' ');
    const tmux = (...args: string[]) =>
      run('tmux', ['-L', `dubdesk-sandbox-stop-${process.pid}`, ...args], { env, cwd: work });
    await tmux('new-session', '-d', '-x', '100', '-y', '30', `${command}; echo "EXIT=$?"; sleep 600`);
    const screen = async () =>
      (await tmux('capture-pane', '-p').catch(() => ({ stdout: 'EXIT=none: the session ended' }))).stdout;
    let dubbing: Tool | null = null;
    try {
      // The sandbox's ffmpeg at its dub (in the data folder, where the built-in sandbox keeps its state).
      dubbing = await vi.waitFor(
        () => {
          const [tool] = ffmpegsUnder(home).filter((t) => t.args.includes('translated'));
          if (!tool) throw new Error('the sandbox has not started its dub yet');
          return tool;
        },
        { timeout: 120_000, interval: 10 },
      );
      process.kill(dubbing.pid, 'SIGSTOP');
      await tmux('send-keys', 'C-c');
      // The dub would never end: a command that waits for it never says EXIT.
      await vi.waitFor(async () => expect(await screen()).toMatch(/EXIT=\d+/), {
        timeout: 120_000,
        interval: 200,
      });
      expect(await screen()).toContain('EXIT=130');
      expect(alive(dubbing.pid)).toBe(false);
    } finally {
      await tmux('kill-server').catch(() => null);
      // Left held by a failed check: the ffmpeg goes with the test.
      if (dubbing && alive(dubbing.pid)) process.kill(-dubbing.pid, 'SIGKILL');
    }

    // The next run, its ffmpeg left to work: the same dub is made, fetched and charged once.
    const again = await runCli(['run', '--until-done', '--poll-interval', '0.2'], env, work);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('no longer on the service');
    expect(
      existsSync(join(work, 'out', 'long talk.es.mkv')) || existsSync(join(work, 'out', 'long talk.es.mp4')),
    ).toBe(true);
    const status = StatusJson.parse(JSON.parse((await runCli(['status', '--json'], env, work)).stdout));
    const [job] = status.jobs;
    expect(status.jobs).toHaveLength(1);
    expect(job?.state).toBe('completed');
    expect(job?.creditsCharged).toBeGreaterThan(0);
    // The built-in sandbox starts every home with 3600 credits: this dub's charge is the only one taken.
    expect(status.queue.balance).toBe(3600 - (job?.creditsCharged ?? 0));
  }, 300_000);
});
