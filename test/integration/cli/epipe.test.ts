import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CLI, envFor, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { videoMp4 } from '../../helpers/media';
import { seedQueue } from '../../helpers/seed';

const pipeline = (args: string, reader: string) =>
  `"${process.execPath}" "${CLI}" ${args} | ${reader} >/dev/null; echo "status=\${PIPESTATUS[0]}" >&2`;

/** `piped`, without blocking this process (whose event loop runs the sandbox the command talks to). */
async function pipedAway(args: string, reader: string, env: NodeJS.ProcessEnv) {
  const r = await promisify(execFile)('bash', ['-c', pipeline(args, reader)], { env });
  return { stderr: r.stderr, status: Number(/status=(\d+)\n$/.exec(r.stderr)?.[1]) };
}

/**
 * Runs `dubdesk ARGS | READER` in a real shell pipe and returns what the command itself wrote on stderr
 * and its own exit status (PIPESTATUS[0]), whatever the reader did.
 */
function piped(args: string, reader: string, home: string): { stderr: string; status: number } {
  const r = spawnSync('bash', ['-c', pipeline(args, reader)], {
    env: { ...process.env, DUBDESK_HOME: home, DUBDESK_KEY_STORE: 'file' },
    encoding: 'utf8',
  });
  const status = Number(/status=(\d+)\n$/.exec(r.stderr)?.[1]);
  return { stderr: r.stderr.replace(/status=\d+\n$/, ''), status };
}

describe('output piped into a reader that stops early', () => {
  it('`dubdesk langs | true` (the reader gone before a line) ends quietly, exit 0, no stack trace', () => {
    const home = join(tempDir('dubdesk-epipe-'), 'home');
    for (let i = 0; i < 3; i++) {
      const r = piped('langs', 'true', home);
      expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
      expect(r.status).toBe(0);
    }
  }, 60_000);

  // The engine's log file is still being opened when `head` goes away: exiting then crashed in the log's
  // exit hook ("sonic boom is not ready yet"), every time.
  it('`logs N | head -1`, `status | head -1` and `status --json | head -1` end quietly, every time', () => {
    const home = join(tempDir('dubdesk-epipe-'), 'home');
    seedQueue(home, 400, ['es', 'fr']);
    for (let i = 0; i < 3; i++)
      for (const args of ['logs 1', 'status --all', 'status --json']) {
        const r = piped(args, 'head -1', home);
        expect(r.stderr, args).toBe('');
        expect(r.status, args).toBe(0);
      }
  }, 120_000);
});

describe('a batch whose output is piped into a reader that stops early', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ ffmpeg: false, pipelineSeconds: 1 });
  });
  afterAll(() => sb?.stop());

  // `head -3` keeps the first lines and goes: what a person glancing at the start expects is the batch done,
  // not stopped half way with nothing said (the output is commentary; the dubs are what was asked for).
  it('`dub … 2>&1 | head -3` goes on to the end: every job done, its files there, exit 0', async () => {
    const work = tempDir('dubdesk-epipe-');
    const home = join(work, 'home');
    const out = join(work, 'out');
    const files = ['a', 'b', 'c'].map((n) => videoMp4(2, `epipe-${n}.mp4`)).join(' ');
    const r = await pipedAway(
      `dub ${files} --to es,fr --out ${out} --poll-interval 0.1 2>&1`,
      'head -3',
      envFor(sb, home),
    );
    expect(r.status, r.stderr).toBe(0);
    const status = z
      .object({ jobs: z.array(z.object({ state: z.string() })) })
      .parse(JSON.parse((await runCli(['status', '--json'], envFor(sb, home))).stdout));
    expect(status.jobs.map((j) => j.state)).toEqual(Array(6).fill('completed'));
    for (const name of ['a', 'b', 'c'])
      for (const lang of ['es', 'fr']) expect(existsSync(join(out, `epipe-${name}.${lang}.mp4`))).toBe(true);
  }, 120_000);
});
