/**
 * `dubdesk doctor` in a real terminal process (issue 24.5): every check passes on a fresh home with the
 * built-in sandbox; a file where the home should be, a damaged database and a rejected key each fail with
 * their fix. Then the report "Copy diagnostics" builds: the checks, the log's last 200 lines, no key.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, openSync, writeSync, closeSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnosticsReport, type Check } from '../../../electron/engine/index';
import { openDatabase } from '../../../electron/engine/db/open';
import { startSandbox, type Sandbox } from '../../../electron/sandbox/server';
import { CLI, runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

/** The user's environment for a home: no service configured, the key kept in the owner-only file. */
const envFor = (home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const { DUBDESK_BASE_URL: _b, DUBDESK_LEGACY_URL: _l, DUBDESK_API_KEY: _k, ...env } = process.env;
  return { ...env, DUBDESK_HOME: home, DUBDESK_KEY_STORE: 'file', ...extra };
};

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const keyringHere = process.platform === 'linux' && has('dbus-run-session') && has('gnome-keyring-daemon');

const failed = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('✗'));

describe('dubdesk doctor', () => {
  it('passes on a fresh home with the built-in sandbox, and exits 0', async () => {
    const home = join(tempDir(), 'Dubdesk');
    const r = await runCli(['doctor'], envFor(home));
    expect(r.stderr).toBe('');
    expect(failed(r.stdout)).toEqual([]);
    for (const title of [
      'Runtime',
      'Data folder',
      'Queue database',
      'Last backup',
      'Key store',
      'Service',
      'Log',
    ])
      expect(r.stdout, title).toMatch(new RegExp(`^✓ ${title}: `, 'm'));
    expect(r.stdout).toMatch(/^✓ Last backup: none yet$/m);
    expect(r.stdout).toContain(join(home, 'logs', 'dubdesk.log'));
    expect(r.code).toBe(0);
  });

  it.runIf(keyringHere)(
    'passes with the real OS key store (GNOME Keyring in a D-Bus session), as on a desktop',
    () => {
      const session = tempDir('dubdesk-session-');
      const script = [
        'set -e',
        `export HOME='${session}'`,
        "printf 'session-password' | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1",
        `'${process.execPath}' '${CLI}' doctor`,
      ].join('\n');
      const {
        DUBDESK_KEY_STORE: _s,
        DBUS_SESSION_BUS_ADDRESS: _d,
        ...env
      } = envFor(join(tempDir(), 'Dubdesk'));
      const r = spawnSync('dbus-run-session', ['--', 'bash', '-c', script], {
        env,
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(r.stdout).toMatch(/^✓ Key store: the system credential store answers$/m);
      expect(failed(r.stdout)).toEqual([]);
      expect(r.status, r.stderr).toBe(0);
    },
  );

  it.runIf(process.platform === 'linux')(
    'where no credential store answers (no D-Bus session): not needed with the sandbox, a failure with the service',
    async () => {
      const { DBUS_SESSION_BUS_ADDRESS: _d, ...env } = envFor(join(tempDir(), 'Dubdesk'), {
        DUBDESK_KEY_STORE: '',
      });
      const sandbox = await runCli(['doctor'], env);
      expect(sandbox.stdout).toMatch(/^✓ Key store: not needed yet/m);
      expect(sandbox.code).toBe(0);
      const service = await runCli(['doctor'], { ...env, DUBDESK_BASE_URL: 'http://127.0.0.1:9' });
      expect(service.stdout).toMatch(
        /^✗ Key store: no Secret Service \(GNOME Keyring or KWallet\) answered in this session$/m,
      );
      expect(service.stdout).toContain('fix: Install and unlock a Secret Service (GNOME Keyring or KWallet)');
      expect(service.code).toBe(1);
    },
  );

  it('names the newest backup when the home has some', async () => {
    const home = tempDir();
    openDatabase(join(home, 'dubdesk.db')).close(); // the queue, then its backup
    mkdirSync(join(home, 'backups'));
    writeFileSync(join(home, 'backups', 'dubdesk-1.db'), 'x');
    const r = await runCli(['doctor', '--json'], envFor(home));
    const out = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
    expect(out.checks.find((c) => c.title === 'Last backup')?.detail).toContain('dubdesk-1.db');
    expect(out.ok).toBe(true);
  });

  it('fails clearly on a home that cannot be written (a file in its place), with the fix', async () => {
    const home = join(tempDir(), 'Dubdesk');
    writeFileSync(home, 'not a folder');
    const r = await runCli(['doctor'], envFor(home));
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`✗ Data folder: ${home} is not a folder (a file is in its place)`);
    expect(r.stdout).toMatch(
      /✗ Data folder: .*\n {4}fix: Move that file away, or point Dubdesk at another data folder/,
    );
    expect(r.stdout).toMatch(/^✗ Service: not checked/m);
    expect(r.stderr).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/); // no stack trace
  });

  it('fails clearly on a damaged database, naming the file and the way back', async () => {
    const home = tempDir();
    expect((await runCli(['doctor'], envFor(home))).code).toBe(0); // makes a real queue database
    const db = join(home, 'dubdesk.db');
    // Scribble over everything after the header page: the file still opens, its pages do not add up.
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(Math.max(8192, statSync(db).size), 0x5a), 0, undefined, 4096);
    closeSync(fd);
    const r = await runCli(['doctor'], envFor(home));
    expect(r.code).toBe(1);
    expect(failed(r.stdout).join('\n')).toMatch(
      /^✗ Queue database: .*dubdesk\.db (is damaged|cannot be read)/m,
    );
    expect(r.stdout).toContain('fix: Quit Dubdesk and run `dubdesk restore-db`');
    expect(r.stdout).toContain(join(home, 'backups'));
  });

  describe('with a service configured', () => {
    let sb: Sandbox;
    beforeAll(async () => {
      sb = await startSandbox({ pipelineSeconds: 1 });
    });
    afterAll(async () => {
      await sb.stop();
    });

    it('passes with a key the service accepts, and checks the built-in sandbox on its own', async () => {
      const env = { DUBDESK_BASE_URL: sb.baseUrl, DUBDESK_API_KEY: sb.account.apiKey };
      const r = await runCli(['doctor'], envFor(tempDir(), env));
      expect(r.stdout).toMatch(new RegExp(`^✓ Service: ${sb.baseUrl} accepts the key`, 'm'));
      expect(r.stdout).toMatch(/^✓ Built-in sandbox: starts and answers/m);
      expect(r.code).toBe(0);
    });

    it('fails on a key the service rejects', async () => {
      const env = { DUBDESK_BASE_URL: sb.baseUrl, DUBDESK_API_KEY: 'sk-wrong-0000' };
      const r = await runCli(['doctor'], envFor(tempDir(), env));
      expect(r.stdout).toMatch(new RegExp(`^✗ Service: ${sb.baseUrl} rejected the API key`, 'm'));
      expect(r.stdout).toContain('fix: Enter the key again in Settings, or with `dubdesk login`.');
      expect(r.code).toBe(1);
    });
  });
});

describe('the diagnostics report (Help > Copy Diagnostics)', () => {
  it('holds the checks and the last 200 log lines, with every key redacted', async () => {
    const home = tempDir();
    mkdirSync(join(home, 'logs'));
    const lines = Array.from({ length: 250 }, (_, i) =>
      JSON.stringify({ n: i, msg: i === 240 ? 'sent apikey: sk-live-abcdef123 to the service' : 'poll' }),
    );
    lines.push(JSON.stringify({ n: 250, headers: { Authorization: 'Bearer tok-98765' } }));
    lines.push(JSON.stringify({ n: 251, msg: 'stored key sk-stored-5555 shown' }));
    writeFileSync(join(home, 'logs', 'dubdesk.log'), `${lines.join('\n')}\n`);
    const checks: Check[] = [
      { title: 'Runtime', ok: true, detail: 'Node.js 22' },
      { title: 'Service', ok: false, detail: 'rejected', fix: 'Enter the key again.' },
    ];
    const report = await diagnosticsReport(checks, home, ['sk-stored-5555']);
    expect(report).toContain('✓ Runtime: Node.js 22');
    expect(report).toContain('✗ Service: rejected\n    fix: Enter the key again.');
    const logPart = report.split(/Last \d+ lines of .*\n/)[1] ?? '';
    expect(logPart.split('\n')).toHaveLength(200);
    expect(logPart).toContain('"n":251');
    expect(logPart).not.toContain('"n":51,');
    for (const secret of ['sk-live-abcdef123', 'tok-98765', 'sk-stored-5555'])
      expect(report, secret).not.toContain(secret);
    expect(report).toContain('[redacted]');
  });
});
