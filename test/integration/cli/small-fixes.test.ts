import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../../electron/cli/program';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { envFor, runCli, startCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { filesOf, running, waitFor, watchEngine } from '../../helpers/watch';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.2 });
});
afterAll(() => sb.stop());

/** An environment with no key and no service: the built-in sandbox, as a new user first meets it. */
const firstRun = (home: string) => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DUBDESK_'))),
  DUBDESK_HOME: home,
  DUBDESK_KEY_STORE: 'file',
});

describe('the command line says what it means', () => {
  it('an unknown option is named as such, even when a required one is missing (`add --too es`)', async () => {
    const r = await runCli(['add', 'x.mp4', '--too', 'es'], firstRun(tempDir()));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown option '--too'\n\(Did you mean --to\?\)/);
    expect(r.stderr).not.toContain('not specified');
    // Without the typo, the missing option is still reported.
    const missing = await runCli(['add', 'x.mp4'], firstRun(tempDir()));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: required option '--to <langs>' not specified");
  });

  it('a mistyped command suggests the command and the overall help, not `add`', async () => {
    const r = await runCli(['stauts'], firstRun(tempDir()));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('(Did you mean status?)');
    expect(r.stderr).not.toContain('add --help');
    expect(r.stderr).toContain('`dubdesk --help`');
  });

  it('help texts: no placeholders, no doubled defaults, no broken sentences', () => {
    const program = buildProgram();
    const texts = [program, ...program.commands].map((c) => c.helpInformation());
    const all = texts.join('\n');
    expect(all).not.toMatch(/\{[a-z_]+\}/); // {base_url}
    expect(all).not.toContain('(default: false)');
    expect(all).not.toContain('(the default) (default');
    expect(all).not.toContain('even though it was (');
  });

  it('the sandbox notice is printed once per data folder, not on every command', async () => {
    const env = firstRun(join(tempDir(), 'home'));
    const first = await runCli(['langs'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('No API key configured: using the built-in sandbox');
    for (const args of [['langs'], ['me'], ['estimate', videoMp4(2, 'notice.mp4'), '--to', 'es']]) {
      const r = await runCli(args, env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('built-in sandbox');
    }
    // `me` still says which service it talks to.
    expect((await runCli(['me'], env)).stdout).toContain('Service: the built-in sandbox');
  });
});

describe('dub says what it is doing and what it did', () => {
  it('"Reading N files…" is the first thing said, before any file is read', async () => {
    const work = tempDir('dubdesk-reading-');
    const files = ['r1.mp4', 'r2.mp4', 'r3.mp4'].map((n) => videoMp4(2, n));
    const dir = join(work, 'more');
    mkdirSync(dir);
    copyFileSync(videoMp4(2, 'r4.mp4'), join(dir, 'r4.mp4'));
    const { child, done } = startCli(
      ['dub', ...files, dir, '--to', 'es', '--out', 'out', '--poll-interval', '0.1'],
      envFor(sb, join(work, 'home')),
      work,
    );
    const first = await new Promise<string>((resolve) =>
      child.stderr?.once('data', (d: Buffer) => resolve(d.toString())),
    );
    expect(first.split('\n')[0]).toBe('Reading 3 files, 1 folder…');
    const r = await done;
    expect(r.code, r.stderr).toBe(0);
  });

  it('nothing new to dub: one line for what was already dubbed and a summary, not a line per dub', async () => {
    const work = tempDir('dubdesk-nothing-new-');
    const env = envFor(sb, join(work, 'home'));
    const files = ['n1', 'n2', 'n3'].map((n) => {
      const path = join(work, `${n}.mp4`);
      copyFileSync(videoMp4(2, 'nothing-new.mp4'), path);
      return path;
    });
    const args = ['dub', ...files, '--to', 'es,fr', '--out', 'out', '--poll-interval', '0.1'];
    expect((await runCli(args, env, work)).code).toBe(0);
    const again = await runCli(args, env, work);
    expect(again.code, again.stderr).toBe(0);
    const lines = again.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      'Reading 3 files…',
      `already dubbed: 6 dubs of 3 files with these settings (jobs #1–#6); results in ${join(work, 'out')}; pass --again to dub them again (charged again); \`dubdesk status\` lists them.`,
      'Nothing new to dub: 6 already dubbed, 0 queued.',
    ]);
  });
});

describe('watch --files', () => {
  it('a file awaiting approval points at --approve and the credit limit, not at a --force watch has not got', async () => {
    const home = join(tempDir(), 'home');
    const dir = tempDir('dubdesk-approve-');
    const env = envFor(sb, home);
    const added = await runCli(['watch', dir, '--to', 'es', '--credit-limit', '0'], env);
    expect(added.code, added.stderr).toBe(0);
    copyFileSync(videoMp4(2, 'approve.mp4'), join(dir, 'approve.mp4'));
    const host = watchEngine(sb, home);
    const run = running(host);
    try {
      await waitFor(
        'the file to await approval',
        () => filesOf(host.api, 1),
        (files) => files[0]?.status === 'awaiting-approval',
      );
    } finally {
      await run.stop();
      await host.close();
    }
    const r = await runCli(['watch', '--files', dir], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`dubdesk watch --approve ${dir}`);
    expect(r.stdout).toContain('--credit-limit');
    expect(r.stdout).not.toContain('--force');
  });

  it('a duplicate row always says what it is, and no note reads ".;"', async () => {
    const home = join(tempDir(), 'home');
    const dir = tempDir('dubdesk-dupes-');
    const env = envFor(sb, home);
    expect((await runCli(['watch', dir, '--to', 'es'], env)).code).toBe(0);
    const same = videoMp4(2, 'dupe-src.mp4');
    // The same content added by hand first (no watched file to name as the original), then twice here.
    expect((await runCli(['add', same, '--to', 'es', '--out', tempDir()], env)).code).toBe(0);
    copyFileSync(same, join(dir, 'first.mp4'));
    copyFileSync(same, join(dir, 'second.mp4'));
    // And a copy stalled half-way: it waits, with a reason and when it is looked at again.
    const whole = readFileSync(videoMp4(3, 'half-src.mp4'));
    writeFileSync(join(dir, 'half.mp4'), whole.subarray(0, whole.length - 2000));
    const host = watchEngine(sb, home);
    const run = running(host);
    try {
      await waitFor(
        'one of the two to be a duplicate',
        () => filesOf(host.api, 1),
        (files) =>
          files.some((f) => f.status === 'duplicate') &&
          files.some((f) => f.name === 'half.mp4' && f.problem !== null && f.nextCheckAt !== null),
      );
    } finally {
      await run.stop();
      await host.close();
    }
    const r = await runCli(['watch', '--files', dir], env);
    expect(r.code, r.stderr).toBe(0);
    const header = r.stdout.split('\n')[0] ?? '';
    const noteAt = header.indexOf('NOTE');
    const dupes = r.stdout.split('\n').filter((l) => / duplicate /.test(l));
    expect(dupes.length, r.stdout).toBeGreaterThan(0);
    for (const line of dupes) expect(line.slice(noteAt).trim(), r.stdout).not.toBe('');
    expect(r.stdout).not.toContain('.;');
    expect(r.stdout).toMatch(/half\.mp4 .*KiB of its MP4 structure is still missing.* Looked at again in /);
  });
});
