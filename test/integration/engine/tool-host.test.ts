/**
 * While an engine is open, ffmpeg and ffprobe are spawned by a small helper process (the tool host), not by
 * the engine's own big process. It is started at the first run, stopped with the last engine, and a host
 * that dies under a running tool takes the tool with it and fails the run in a way the step retries.
 * Real processes throughout: the system's ffmpeg, the host's real pid, `ps` to see who is whose parent.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MediaTools } from '../../../electron/media-tools/locate';
import { MediaToolError, runTool } from '../../../electron/media-tools/run';
import { holdToolHost, toolHostPid, ToolHostGoneError } from '../../../electron/media-tools/tool-host';
import { audioMp3 } from '../../helpers/media';
import { tempDir } from '../../helpers/temp-dir';
import { system } from '../../helpers/toolsets';

/** Whether `pid` runs: a process over but not yet reaped by whoever adopted it (a zombie) does not. */
const alive = (pid: number) => {
  const stat = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
  return stat !== '' && !stat.startsWith('Z');
};
const parentOf = (pid: number) =>
  Number(spawnSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim());

/**
 * An ffmpeg that runs until stopped: a minute of silence read at its own pace (-re), saying nothing (a tool
 * that writes to the pipe of a host gone dies of it; one that is quiet must be stopped).
 */
const endless = [
  '-nostdin',
  '-nostats',
  '-v',
  'quiet',
  '-re',
  '-f',
  'lavfi',
  '-i',
  'anullsrc=d=60',
  '-f',
  'null',
  '-',
];

let release: (() => Promise<void>) | null = null;
afterEach(async () => {
  await release?.();
  release = null;
});

/** Runs `endless` and resolves, once it has started, with its pid and its run's outcome. */
async function startEndless(tools: MediaTools, signal?: AbortSignal) {
  let pid = 0;
  const outcome = runTool(tools.ffmpeg, endless, {
    timeoutMs: 60_000,
    signal,
    onSpawn: async (p) => {
      pid = p;
    },
  }).catch((e: unknown) => e);
  await vi.waitFor(() => expect(pid).toBeGreaterThan(0), { timeout: 20_000, interval: 10 });
  return { pid, outcome };
}

describe.skipIf(process.platform === 'win32')('the tool host (skipped on Windows: no ps)', () => {
  it('is started at the first run, spawns the tool itself, and is stopped with the last engine', async () => {
    const tools = await system();
    release = holdToolHost();
    expect(toolHostPid(), 'nothing is started before a tool is run').toBeUndefined();

    const version = await runTool(tools.ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 15_000 });
    expect(version.stdout).toMatch(/^ffmpeg version /);
    const host = toolHostPid();
    expect(host).toBeDefined();
    expect(host).not.toBe(process.pid);

    const stop = new AbortController();
    const running = await startEndless(tools, stop.signal);
    expect(parentOf(running.pid), "the tool is the host's child, not this process's").toBe(host);
    stop.abort();
    expect(await running.outcome).toMatchObject({ why: 'stopped' });
    expect(alive(running.pid)).toBe(false);

    const second = holdToolHost();
    await release();
    expect(alive(host ?? 0), 'another engine still holds it').toBe(true);
    release = second;
    await release();
    release = null;
    expect(alive(host ?? 0), 'the last engine closed: the host is gone').toBe(false);
    expect(toolHostPid()).toBeUndefined();
  });

  it('says what the tool said, and how it failed, as a tool run from this process does', async () => {
    const tools = await system();
    const clip = join(tempDir('dubdesk-tool-host-'), 'réunion 1.mp3');
    copyFileSync(audioMp3(2, 'tool-host.mp3'), clip);
    const cases = async () => [
      await runTool(
        tools.ffprobe,
        ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', clip],
        { timeoutMs: 15_000 },
      ),
      await runTool(tools.ffmpeg, ['-hide_banner', '-i', '/nonexistent/é clip.mp4'], {
        timeoutMs: 15_000,
      }).catch((e: unknown) => e),
      await runTool('/nonexistent/ffmpeg', ['-version'], { timeoutMs: 15_000 }).catch((e: unknown) => e),
      await runTool(tools.ffmpeg, endless, { timeoutMs: 300 }).catch((e: unknown) => e),
    ];
    const here = await cases();
    release = holdToolHost();
    const hosted = await cases();
    expect(toolHostPid()).toBeDefined();
    expect(here[0]).toMatchObject({
      stdout: expect.stringMatching(/codec_name=mp3\n.*\n.*duration=2\.\d+/s),
    });
    expect(hosted[0]).toEqual(here[0]);
    for (const [i, why] of [
      [1, 'failed'],
      [2, 'missing'],
      [3, 'timed-out'],
    ] as const) {
      expect(here[i]).toBeInstanceOf(MediaToolError);
      expect(hosted[i]).toBeInstanceOf(MediaToolError);
      expect(hosted[i]).toMatchObject({ why, message: (here[i] as Error).message });
    }
    expect((hosted[1] as Error).message).toContain('/nonexistent/é clip.mp4: No such file or directory');
  });

  it('killed under a running tool: the run fails to be tried again, the tool is stopped, the next run gets a new host', async () => {
    const tools = await system();
    release = holdToolHost();
    const running = await startEndless(tools);
    const host = toolHostPid() ?? 0;
    expect(parentOf(running.pid)).toBe(host);

    process.kill(host, 'SIGKILL');
    const failed = await running.outcome;
    expect(failed).toBeInstanceOf(ToolHostGoneError);
    expect(failed).not.toBeInstanceOf(MediaToolError);
    await vi.waitFor(() => expect(alive(running.pid), 'the tool outlived its host').toBe(false), {
      timeout: 10_000,
    });

    const again = await runTool(tools.ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 15_000 });
    expect(again.stdout).toMatch(/^ffmpeg version /);
    expect(toolHostPid()).not.toBe(host);
  });
});
