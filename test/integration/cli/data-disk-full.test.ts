/**
 * The disk under the data folder fills up while the queue is worked (a real, size-limited tmpfs, where the
 * tests run as root and may mount one): the CLI crashed with SQLITE_FULL and a stack trace. It waits for
 * space, saying where to free how much, as the output folder's full disk already does, and once there is
 * room it goes on: nothing is lost, nothing is dubbed twice.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { startedDubs } from '../../helpers/started-dubs';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

/** A folder on a tmpfs of `size`, or null where this machine lets us mount none (not root). */
function tmpfs(size: string): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = tempDir('dubdesk-tmpfs-');
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status === 0 ? dir : null;
}
const probe = tmpfs('1m');
if (probe) spawnSync('umount', [probe]);

const undo: (() => void)[] = [];
afterEach(() => {
  for (const f of undo.splice(0).reverse()) f();
});

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.5, ffmpeg: false });
});
afterAll(() => sb.stop());

describe.skipIf(!probe)('the data folder’s disk fills up (a real tmpfs, as root)', () => {
  it('run --until-done waits with "disk full: free N MiB in DIR" (the MiB every size is said in), then finishes once space is freed', async () => {
    const mount = tmpfs('8m') ?? '';
    undo.push(() => spawnSync('umount', ['-l', mount]));
    const home = join(mount, 'home');
    const work = tempDir('dubdesk-full-');
    const env = envFor(sb, home);
    const added = await runCli(
      ['add', videoMp4(2, 'full-a.mp4'), videoMp4(3, 'full-b.mp4'), '--to', 'es', '--out', join(work, 'out')],
      env,
      work,
    );
    expect(added.code, added.stderr).toBe(0);
    // Everything but a few kilobytes taken.
    const { bavail, bsize } = statfsSync(mount);
    const filler = join(mount, 'filler');
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 40 * 1024)));

    const cli = startCli(['run', '--until-done', '--poll-interval', '0.1'], env, work);
    undo.push(() => cli.child.kill('SIGKILL'));
    let said = '';
    cli.child.stderr?.on('data', (d: Buffer) => (said += d.toString()));
    await vi.waitFor(() => expect(said).toMatch(new RegExp(`disk full: free \\d+\\.0 MiB in ${home}`)), {
      timeout: 30_000,
    });
    rmSync(filler);
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/SqliteError|\n\s+at /);
    const status = JSON.parse((await runCli(['status', '--json'], env, work)).stdout) as {
      jobs: { state: string }[];
    };
    expect(status.jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    // Each dubbed once.
    const names = startedDubs(sb).map((d) => d.name);
    expect(names.filter((n) => n === 'full-a.mp4')).toHaveLength(1);
    expect(names.filter((n) => n === 'full-b.mp4')).toHaveLength(1);
  }, 120_000);
});
