/**
 * A job that fails on the local disk (the output folder gone read-only or replaced while its dub was made)
 * ends `dub` and `run --until-done` with exit 1, as any failed job does: nothing may hold the process after
 * the summary.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExitCode } from '../../../electron/cli/exit-codes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  // The dubs wait for the test's clock: the folder is broken while they are made, then they complete.
  sb = await startSandbox({ pipelineSeconds: 3600 });
});
afterAll(() => sb.stop());

const undo: (() => void)[] = [];
afterEach(() => {
  for (const f of undo.splice(0)) f();
});

/**
 * Makes the output folder refuse new files, as a disk remounted read-only does: a read-only bind mount where
 * the tests run as root (EROFS; root writes through permissions), its permissions taken away elsewhere (EACCES).
 */
function unwritable(out: string): void {
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['--bind', out, out]);
    undo.push(() => execFileSync('umount', [out]));
    execFileSync('mount', ['-o', 'remount,ro,bind', out]);
  } else {
    chmodSync(out, 0o555);
    undo.push(() => chmodSync(out, 0o755));
  }
}

describe('a job failed on the local disk', () => {
  it.each([
    ['dub', (clip: string) => ['dub', clip, '--to', 'es', '--out', 'out', '--poll-interval', '0.1']],
    ['run --until-done', () => ['run', '--until-done', '--poll-interval', '0.1']],
  ])('%s exits 1 after the summary', async (name, args) => {
    const work = tempDir('dubdesk-disk-exit-');
    const out = join(work, 'out');
    mkdirSync(out);
    const env = envFor(sb, join(work, 'home'));
    const clip = videoMp4(2, `disk-exit-${name.split(' ')[0] ?? ''}.mp4`);
    if (name !== 'dub') {
      const added = await runCli(['add', clip, '--to', 'es', '--out', 'out'], env, work);
      expect(added.code, added.stderr).toBe(0);
    }
    const cli = startCli(args(clip), env, work);
    undo.push(() => cli.child.kill('SIGKILL'));
    let said = '';
    cli.child.stdout?.on('data', (d: Buffer) => (said += d.toString()));
    cli.child.stderr?.on('data', (d: Buffer) => (said += d.toString()));
    await vi.waitFor(() => expect(said).toContain('in the service queue'), { timeout: 30_000 });
    unwritable(out);
    sb.advanceClock(3600);
    const r = await cli.done;
    expect(r.stderr).toMatch(/0 completed, 1 failed/);
    expect(r.code, r.stderr).toBe(ExitCode.Failed);
    // The failure says what to do, with the commands that do it (the dub made is not paid again).
    const failed = r.stderr.split('\n').find((l) => l.startsWith('  ✗ #1 '));
    expect(failed).toMatch(
      process.getuid?.() === 0 ? / is on a read-only disk\. / : /cannot write to .* \(EACCES\)\. /,
    );
    expect(failed).toContain(
      'Make the folder writable again, then `dubdesk retry 1`; or `dubdesk retry 1 --out DIR` saves the results in another folder (the dub made is not paid again).',
    );
  });
});
