/**
 * The built-in sandbox shared by several Dubdesk processes on one home (issue 21 item 11): whoever started
 * it may leave while others still use it, and many commands may start it at the same instant.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, type CliResult } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { audioMp3, videoMp4 } from '../../helpers/media';
import { startSandboxProcess } from '../../helpers/sandbox-process';

/** A newcomer's environment: no key, no address, so every command uses the built-in sandbox. */
function newcomer(home: string): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DUBDESK_'))),
    DUBDESK_HOME: home,
    DUBDESK_RETRY_BASE_MS: '50',
  };
}

const ok = (r: CliResult, what: string) => expect(r.code, `${what}: ${r.stderr}`).toBe(0);

describe('the built-in sandbox shared between processes', () => {
  it('a run that borrowed it finishes after the process that owned it exits', async () => {
    const work = tempDir('dubdesk-borrow-');
    const home = join(work, 'home');
    const env = newcomer(home);
    // Another process owns the home's sandbox (as an `estimate` or the app would); a slow pipeline keeps
    // the dubs in flight when it leaves.
    const owner = await startSandboxProcess(
      ['--state-dir', join(home, 'sandbox'), '--pipeline-seconds', '3'],
      { port: 'any' },
    );
    let run: ReturnType<typeof startCli> | null = null;
    try {
      ok(
        await runCli(['add', videoMp4(2, 'borrowed.mp4'), '--to', 'es,fr', '--out', 'out'], env, work),
        'add',
      );
      run = startCli(['run', '--until-done', '--poll-interval', '0.2'], env, work);
      let said = '';
      const dubbing = new Promise<void>((resolve) =>
        run?.child.stderr?.on('data', (d: Buffer) => {
          said += d.toString();
          if (/in the service queue|dubbing/.test(said)) resolve();
        }),
      );
      await Promise.race([dubbing, run.done]);
      await owner.stop();
      const r = await run.done;
      ok(r, 'run --until-done');
      expect((await readdir(join(work, 'out'))).sort()).toEqual([
        'borrowed.es.mp4',
        'borrowed.es.vtt',
        'borrowed.fr.mp4',
        'borrowed.fr.vtt',
      ]);
    } finally {
      run?.child.kill('SIGKILL');
      await owner.stop();
    }
  }, 180_000);

  it('twelve commands started at once on a fresh home: none fails, every batch is queued', async () => {
    const work = tempDir('dubdesk-twelve-');
    const env = newcomer(join(work, 'home'));
    const commands: string[][] = [];
    for (let i = 0; i < 6; i++)
      commands.push(['add', audioMp3(1 + i / 10, `clip-${i}.mp3`), '--to', 'es', '--out', 'out']);
    for (let i = 0; i < 3; i++) commands.push(['estimate', videoMp4(1), '--to', 'es,fr']);
    for (let i = 0; i < 3; i++) commands.push(['me']);
    const results = await Promise.all(commands.map((args) => runCli(args, env, work)));
    results.forEach((r, i) => ok(r, commands[i]?.join(' ') ?? ''));
    const status = JSON.parse((await runCli(['status', '--json'], env, work)).stdout) as {
      jobs: { source: string }[];
    };
    expect(status.jobs).toHaveLength(6);
  }, 420_000);
});
