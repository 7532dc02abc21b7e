import { spawn } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';
import { fakeService, type FakeService, type FakeServiceOptions } from '../../helpers/fake-service';
import { json } from '../../helpers/hostile';
import { videoMp4 } from '../../helpers/media';

/** What a hostile service (or file name) puts in text: a title change, a bell, a screen clear, C1, bidi. */
const EVIL = '\u001b]0;PWNED\u0007\u001b[2J\u009b31m\u202eevil\u0000\r\nline';
const SAID = 'evil line';

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** Runs the CLI and keeps the raw bytes it wrote. */
function raw(args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  return new Promise<{ code: number | null; stdout: Buffer; stderr: Buffer }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
}

/** No escape, bell, C1 or other control byte: only printable text and line ends. */
function expectClean(bytes: Buffer, what: string): void {
  for (const b of [0x1b, 0x07, 0x00, 0x0d]) expect(bytes.includes(b), `${what} has byte ${b}`).toBe(false);
  // eslint-disable-next-line no-control-regex -- controls (C0 but \n, DEL, C1) and bidi overrides
  expect(bytes.toString('utf8'), what).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
}

async function setup(options: FakeServiceOptions) {
  service = await fakeService(options);
  const work = tempDir('dubdesk-text-');
  const env = {
    ...process.env,
    DUBDESK_HOME: join(work, 'home'),
    DUBDESK_BASE_URL: service.url,
    DUBDESK_API_KEY: 'k',
    DUBDESK_RETRY_BASE_MS: '20',
  };
  // A file whose name carries the same controls.
  const file = join(work, `clip${EVIL.replace('\u0000', '')}.mp4`);
  copyFileSync(videoMp4(2, 'text-src.mp4'), file);
  return { env, work, file };
}

describe('what the service says, and file names, reach the terminal without controls', () => {
  it('profile, language list, refusals, the file name, status and logs', async () => {
    const { env, work, file } = await setup({
      profile: { name: `Eve${EVIL}`, email: `eve${EVIL}@example.com` },
      languages: [
        { code: 'es', name: `Spanish${EVIL}` },
        { code: `x${EVIL}`, name: 'X' },
      ],
      create: (res) => {
        json(res, 400, { error: `refused: ${EVIL}` });
        return true;
      },
    });
    const runs = {
      me: await raw(['me'], env, work),
      langs: await raw(['langs'], env, work),
      dub: await raw(['dub', file, '--to', 'es', '--out', 'out', '--poll-interval', '0.1'], env, work),
      status: await raw(['status', '--verbose'], env, work),
      logs: await raw(['logs', '1'], env, work),
      json: await raw(['status', '--json'], env, work),
    };
    for (const [name, r] of Object.entries(runs)) {
      expectClean(r.stdout, `${name} stdout`);
      expectClean(r.stderr, `${name} stderr`);
    }
    expect(runs.me.stdout.toString()).toContain(`Eve${SAID}`);
    // Codes that are not language tags are left out; names come from Dubdesk's own table.
    expect(runs.langs.stdout.toString().split('\n').slice(1, -1)).toEqual([
      expect.stringMatching(/^es +Spanish/),
    ]);
    expect(runs.dub.code).toBe(1);
    expect(runs.dub.stderr.toString()).toContain(
      `✗ #1 clip${SAID}.mp4 → es: the service refused the request: refused: ${SAID}`,
    );
    expect(runs.logs.stdout.toString()).toContain(`refused: ${SAID}`);
    // JSON keeps the exact text, escaped as JSON does: a script sees what the service said.
    const parsed = JSON.parse(runs.json.stdout.toString()) as { jobs: { source: string }[] };
    expect(parsed.jobs[0]?.source).toBe(file);
  });

  it("a dub's failure message from the service", async () => {
    const { env, work, file } = await setup({
      dub: { external_status_id: 4, external_error_message: { reason: `boom ${EVIL}`, code: EVIL } },
    });
    const r = await raw(['dub', file, '--to', 'es', '--poll-interval', '0.1'], env, work);
    expectClean(r.stdout, 'stdout');
    expectClean(r.stderr, 'stderr');
    expect(r.code).toBe(1);
    expect(r.stderr.toString()).toContain(`: {reason: boom ${SAID}, code: ${SAID}}`);
  });
});
