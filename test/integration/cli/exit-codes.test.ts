import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../electron/cli/exit-codes';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

const CLI_DOC = fileURLToPath(new URL('../../../docs/cli.md', import.meta.url));
const HINT = 'Check the network and the service address (--base-url or DUBDESK_BASE_URL)';

/** docs/cli.md's table of exit codes: each code with what it means, in the order listed. */
function documentedCodes(): Map<number, string> {
  const text = readFileSync(CLI_DOC, 'utf8');
  const section = text.slice(text.indexOf('## Exit codes'));
  const rows = section.slice(0, section.indexOf('\n#')).matchAll(/^\| (\d+) \| (.*) \|$/gm);
  return new Map([...rows].map((m) => [Number(m[1]), m[2] ?? '']));
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ pipelineSeconds: 0.3, users: [{ apiKey: 'small-key', seconds: 3 }] });
});
afterAll(() => sb.stop());

describe('exit codes', () => {
  it('1: a batch with a skipped file, named again in the final summary', async () => {
    const work = tempDir('dubdesk-exit-');
    const env = envFor(sb, join(work, 'home'));
    const missing = join(work, 'missing.mp4');
    const r = await runCli(
      ['dub', videoMp4(2, 'exit-ok.mp4'), missing, '--to', 'es', '--out', 'out', '--poll-interval', '0.1'],
      env,
      work,
    );
    expect(r.code).toBe(1);
    const summary = r.stderr.slice(r.stderr.indexOf('This batch:'));
    expect(summary).toMatch(/^This batch: 1 completed, 0 failed, 1 file skipped\. Credits charged: 2\b/);
    expect(summary).toContain(
      `\n  skipped: ${missing}: no such file. Check the path (quote names with spaces).\n`,
    );
  });

  it('2: an add that skips every input queues nothing, as docs/cli.md and --help say', async () => {
    const work = tempDir('dubdesk-exit-');
    const env = envFor(sb, join(work, 'home'));
    const notes = join(work, 'notes.txt');
    writeFileSync(notes, 'not a video\n');
    const r = await runCli(
      ['add', join(work, 'missing.mp4'), notes, '--to', 'es', '--out', 'out'],
      env,
      work,
    );
    expect(r.code, r.stderr).toBe(ExitCode.Usage);
    expect(r.stderr.match(/^skipped: /gm)).toHaveLength(2);
    expect(r.stderr).toContain('dubdesk: nothing to add.');
    // The row of the code it exits with is the one that speaks of every input skipped; 1 is for some of them.
    const rows = documentedCodes();
    expect(rows.get(ExitCode.Usage)).toMatch(/every input .*skipped.*nothing was queued/);
    expect(rows.get(ExitCode.Failed)).toMatch(/some inputs were skipped while the rest/);
    const help = (await runCli(['--help'], { ...process.env, DUBDESK_HOME: tempDir() })).stdout;
    expect(help).toMatch(new RegExp(`^ +${ExitCode.Usage} +.*every input .*skipped`, 'm'));
  });

  it('7: run --until-done on a paused queue with jobs left; status says the queue is paused, and why', async () => {
    const work = tempDir('dubdesk-exit-');
    const env = envFor(sb, join(work, 'home'));
    expect(
      (await runCli(['add', videoMp4(2, 'exit-paused.mp4'), '--to', 'es', '--out', 'out'], env, work)).code,
    ).toBe(0);
    expect((await runCli(['pause'], env)).code).toBe(0);
    const r = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(r.code, r.stderr).toBe(ExitCode.Paused);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('1 still open');
    expect(r.stderr).toContain('the queue is paused; `dubdesk resume` goes on');
    const status = (await runCli(['status'], env)).stdout;
    expect(status).toContain(
      '\nThe queue is paused (by `dubdesk pause` or the app); `dubdesk resume` goes on.',
    );
    // The service has no pause: the words say what a pause cannot stop.
    expect(status).toContain('Dubs already started keep being processed and charged by the service');
    // Whatever the filter shows: the queue's state is not a property of the jobs listed.
    expect((await runCli(['status', '--failed'], env)).stdout).toContain('The queue is paused');
    const json = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
      queue: { paused: { reason: string } | null };
    };
    expect(json.queue.paused?.reason).toBe('user');
  });

  it('7: run --until-done that leaves a paused job behind names it, instead of exit 0', async () => {
    const work = tempDir('dubdesk-exit-');
    const env = envFor(sb, join(work, 'home'));
    const files = [videoMp4(2, 'exit-one.mp4'), videoMp4(2, 'exit-two.mp4')];
    expect((await runCli(['add', ...files, '--to', 'es', '--out', 'out'], env, work)).code).toBe(0);
    expect((await runCli(['pause', '2'], env)).code).toBe(0);
    const r = await runCli(['run', '--until-done', '--poll-interval', '0.1'], env);
    expect(r.code, r.stderr).toBe(ExitCode.Paused);
    expect(r.stderr).toContain('This run: 1 completed, 0 failed, 1 still open.');
    expect(r.stderr).toContain('#2 exit-two.mp4 → es is paused; `dubdesk resume 2` goes on.');
  });

  it('--help lists every exit code with what it means', async () => {
    const r = await runCli(['--help'], { ...process.env, DUBDESK_HOME: tempDir() });
    const section = r.stdout.slice(r.stdout.indexOf('Exit codes:'));
    const listed = [...section.matchAll(/^ +(\d+) +\S/gm)].map((m) => Number(m[1]));
    expect(listed).toEqual(Object.values(ExitCode));
    expect(section).toMatch(/^ +7 +.*paused/m);
  });

  it('4: estimate over the balance', async () => {
    const env = envFor(sb, tempDir(), 'small-key');
    const r = await runCli(['estimate', videoMp4(2, 'exit-ok.mp4'), '--to', 'es,fr'], env);
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('Balance: 3; short by 1.');
  });

  it('5: the service cannot be reached, with the hint; queued jobs stay queued', async () => {
    const env = {
      ...process.env,
      DUBDESK_HOME: tempDir(),
      DUBDESK_BASE_URL: 'http://127.0.0.1:9',
      DUBDESK_API_KEY: 'k',
    };
    const video = videoMp4(2, 'exit-ok.mp4');
    for (const args of [['me'], ['estimate', video, '--to', 'es'], ['dub', video, '--to', 'es']]) {
      const r = await runCli(args, env);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(5);
      // Said once ("cannot reach the service: cannot reach …" said it twice).
      expect(r.stderr).toMatch(/^dubdesk: (the balance is unknown: )?cannot reach http:\/\/127\.0\.0\.1:9/m);
      expect(r.stderr.match(/cannot reach/g)).toHaveLength(1);
      expect(r.stderr).toContain(HINT);
      // Nothing was queued by an estimate: no "queued jobs resume" for it.
      if (args[0] === 'estimate') expect(r.stderr).not.toContain('queued jobs resume');
    }
    // `add` queues for later (the balance unchecked, and said so); a run that should finish does not wait.
    const add = await runCli(['add', video, '--to', 'fr'], env);
    expect(add.code).toBe(0);
    expect(add.stderr).toContain('The balance could not be checked');
    const run = await runCli(['run', '--until-done'], env);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain(HINT);
    const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
      jobs: { state: string }[];
    };
    expect(status.jobs.map((j) => j.state)).toEqual(['queued', 'queued']);
  });

  it('docs/cli.md lists exactly the codes the CLI uses', () => {
    expect([...documentedCodes().keys()]).toEqual(Object.values(ExitCode));
  });
});
