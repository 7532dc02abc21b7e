import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CLI, envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 0.3 });
});
afterAll(() => sb.stop());

const hasScript = spawnSync('script', ['--version']).status === 0;

/**
 * Runs `command` in a real pseudo-terminal (util-linux `script`), typing `typed` once `prompt` shows.
 * Returns everything the terminal displayed, echo included.
 */
function inPty(command: string, prompt: string, typed: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; screen: string }>((resolve) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let sent = false;
    const take = (d: Buffer) => {
      screen += d.toString();
      if (!sent && screen.includes(prompt)) {
        sent = true;
        child.stdin.write(typed);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => resolve({ code, screen }));
  });
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
const cleanEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DUBDESK_')));

interface StatusJob {
  id: number;
  source: string;
  destLang: string;
  state: string;
}
async function jobs(env: NodeJS.ProcessEnv): Promise<StatusJob[]> {
  return (JSON.parse((await runCli(['status', '--json'], env)).stdout) as { jobs: StatusJob[] }).jobs;
}
const rows = (stdout: string) =>
  stdout
    .split('\n')
    .slice(1)
    .filter((l) => /^\d+ /.test(l))
    .map((l) => Number(l.split(' ')[0]));

describe('dubdesk at the keyboard', () => {
  it('--version, and one line for a usage error with where to get help', async () => {
    const env = { ...cleanEnv(), DUBDESK_HOME: tempDir() };
    expect(await runCli(['--version'], env)).toMatchObject({ code: 0, stdout: '0.1.0\n' });
    expect(await runCli(['-V'], env)).toMatchObject({ code: 0, stdout: '0.1.0\n' });
    expect(await runCli(['add', 'x.mp4'], env)).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        "error: required option '--to <langs>' not specified (or name a --preset)\n(see `dubdesk add --help`)\n",
    });
    expect(await runCli(['statsu'], env)).toMatchObject({
      code: 2,
      stderr: "error: unknown command 'statsu'\n(Did you mean status?)\n(see `dubdesk --help`)\n",
    });
    expect(await runCli(['cancel'], env)).toMatchObject({
      code: 2,
      stderr: 'dubdesk cancel: give job ids, or --all / --failed (not both). See `dubdesk cancel --help`.\n',
    });
  });

  it.skipIf(!hasScript)('login at a terminal reads the key without echoing it', async () => {
    const home = tempDir();
    const env = { ...cleanEnv(), DUBDESK_HOME: home };
    // The terminal does echo what is typed (so its absence below means something).
    const echoed = await inPty(`bash -c 'read -p "say: " x; echo got-$x'`, 'say: ', 'visible-text\r', env);
    expect(echoed.screen).toContain('visible-text');
    const login = `${quote(process.execPath)} ${quote(CLI)} login --base-url ${sb.baseUrl}`;
    const r = await inPty(login, 'API key (input hidden): ', `${sb.account.apiKey}\r`, env);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toContain('Saved to');
    expect(r.screen).not.toContain(sb.account.apiKey);
    const me = await runCli(['me', '--json'], env);
    expect(JSON.parse(me.stdout)).toMatchObject({ id: sb.account.id });
  });
});

describe('steering many jobs', () => {
  it('cancel and retry take several ids or a filter; status filters; clear never deletes a file', async () => {
    const work = tempDir('dubdesk-steer-');
    const env = envFor(sb, join(work, 'home'));
    const out = join(work, 'out');
    const gone = join(work, 'gone.mp4');
    copyFileSync(videoMp4(2, 'steer-src.mp4'), gone);
    const files = [videoMp4(2, 'steer-a.mp4'), videoMp4(3, 'steer-b.mp4'), gone];
    expect((await runCli(['add', ...files, '--to', 'es,fr', '--out', out], env)).code).toBe(0);
    const all = await jobs(env);
    const id = (file: string, lang: string) => all.find((j) => j.source === file && j.destLang === lang)?.id;
    const [aEs, aFr, bEs, bFr, goneEs, goneFr] = [
      id(files[0] ?? '', 'es'),
      id(files[0] ?? '', 'fr'),
      id(files[1] ?? '', 'es'),
      id(files[1] ?? '', 'fr'),
      id(gone, 'es'),
      id(gone, 'fr'),
    ];

    const cancel = await runCli(['cancel', String(aFr), `#${bFr}`], env);
    expect(cancel.code).toBe(0);
    expect(cancel.stderr).toBe(`Canceled #${aFr} steer-a.mp4 → fr.\nCanceled #${bFr} steer-b.mp4 → fr.\n`);
    rmSync(gone); // its jobs will fail: the file is gone since it was added
    expect((await runCli(['run', '--until-done', '--poll-interval', '0.1'], env)).code).toBe(1);
    const states = Object.fromEntries((await jobs(env)).map((j) => [j.id, j.state]));
    expect(states).toEqual({
      [aEs ?? 0]: 'completed',
      [aFr ?? 0]: 'canceled',
      [bEs ?? 0]: 'completed',
      [bFr ?? 0]: 'canceled',
      [goneEs ?? 0]: 'failed',
      [goneFr ?? 0]: 'failed',
    });

    const status = async (...args: string[]) => rows((await runCli(['status', ...args], env)).stdout);
    expect(await status('--failed')).toEqual([goneEs, goneFr]);
    expect(await status('--state', 'canceled,completed')).toEqual([aEs, aFr, bEs, bFr]);
    // The whole name: the temporary folder's random part may itself read 'steer-b…' (LIKE ignores case).
    expect(await status('--search', 'steer-b.mp4')).toEqual([bEs, bFr]);
    // The last 2 of the queue's order (smallest file first in a batch: the 3 s steer-b.mp4 goes last).
    const limited = await runCli(['status', '--limit', '2'], env);
    expect(rows(limited.stdout)).toEqual((await status('--all')).slice(-2));
    expect(rows(limited.stdout)).toEqual([bEs, bFr]);
    expect(limited.stdout).toContain('(the last 2 of 6; --all for every job, --state or --search to narrow)');
    expect(await status('--all', '--limit', '1')).toHaveLength(6);
    expect((await runCli(['status', '--search', 'nothing-like-this'], env)).stdout).toBe('No job matches.\n');

    const retry = await runCli(['retry', '--canceled'], env);
    expect(retry.stderr).toContain(
      `Queued again #${aFr} steer-a.mp4 → fr.\nQueued again #${bFr} steer-b.mp4 → fr.\n`,
    );
    const cancelAll = await runCli(['cancel', '--all'], env);
    expect(cancelAll.stderr.match(/^Canceled /gm)).toHaveLength(4); // two queued again, two failed
    expect((await runCli(['retry', String(goneEs), String(goneFr)], env)).code).toBe(0);
    expect((await runCli(['cancel', '--failed'], env)).stderr).toBe('No job to cancel.\n');
    expect((await runCli(['cancel', '--failed', '7'], env)).code).toBe(2);

    const before = (await readdir(out)).sort();
    expect(before).toEqual(['steer-a.es.mp4', 'steer-a.es.vtt', 'steer-b.es.mp4', 'steer-b.es.vtt']);
    const clear = await runCli(['clear'], env);
    expect(clear.stderr).toBe('Cleared 2 completed jobs from the list; no file was deleted.\n');
    expect((await readdir(out)).sort()).toEqual(before);
    expect((await jobs(env)).map((j) => j.state)).toEqual(['canceled', 'canceled', 'queued', 'queued']);
    expect((await runCli(['clear', '--canceled'], env)).stderr).toContain('Cleared 2 canceled jobs');
    expect(await jobs(env)).toHaveLength(2);
  }, 240_000);
});

describe('adding what was already dubbed', () => {
  it('is reported with its job and files, not paid again; --again dubs it again', async () => {
    const work = tempDir('dubdesk-again-');
    const env = envFor(sb, join(work, 'home'));
    const file = videoMp4(2, 'again.mp4');
    const first = await runCli(
      ['dub', file, '--to', 'es', '--out', 'out', '--poll-interval', '0.1'],
      env,
      work,
    );
    expect(first.code, first.stderr).toBe(0);
    const out = join(work, 'out');
    const again = await runCli(['dub', file, '--to', 'es', '--out', 'out'], env, work);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      `already dubbed: job #1 (${file} → es), files ${join(out, 'again.es.mp4')}, ${join(out, 'again.es.vtt')}; pass --again to dub it again (it is charged again).`,
    );
    expect(again.stderr).not.toContain('Queued');
    const json = await runCli(
      ['add', file, 'missing.mp4', '--to', 'es', '--out', 'out', '--json'],
      env,
      work,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      jobs: [],
      added: [],
      alreadyDone: [
        {
          jobId: 1,
          source: file,
          destLang: 'es',
          outputs: [join(out, 'again.es.mp4'), join(out, 'again.es.vtt')],
        },
      ],
      rejected: [
        {
          input: join(work, 'missing.mp4'),
          code: 'not-found',
          message: expect.stringContaining('missing.mp4'),
        },
      ],
    });
    const forced = await runCli(
      ['dub', file, '--to', 'es', '--out', 'out', '--again', '--poll-interval', '0.1'],
      env,
      work,
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('Queued 1 job;');
    // The new dub takes the plain names; the earlier results move aside, never `(2)` beside them.
    expect((await readdir(out)).sort()).toEqual(['again.es.mp4', 'again.es.vtt', 'previous']);
    expect((await readdir(join(out, 'previous'))).sort()).toEqual(['again.es.mp4', 'again.es.vtt']);
    rmSync(join(out, 'again.es.vtt'));
    const moved = await runCli(['add', file, '--to', 'es', '--out', 'out'], env, work);
    expect(moved.stderr).toContain(`${join(out, 'again.es.vtt')} (no longer there);`);
  }, 120_000);
});
