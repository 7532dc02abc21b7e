/**
 * `dubdesk doctor` as a new user runs it (issue 24.5): a fresh home, no settings, no key, no environment
 * tricks, on a machine whose session has no Secret Service (a headless Linux box, a container, SSH). With
 * the built-in sandbox in use no key is needed yet, so the key store is no failure; it fails only once a key
 * is needed or stored. A read-only home and a damaged database fail with a line saying what and how.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, type CliResult } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

/** A user's plain environment: no DUBDESK_* setting at all, and no D-Bus session (so no Secret Service). */
function plainEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('DUBDESK_') && k !== 'DBUS_SESSION_BUS_ADDRESS') env[k] = v;
  return { ...env, DUBDESK_HOME: home, ...extra };
}

const failed = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('✗'));
const noStack = (r: CliResult) => expect(r.stderr + r.stdout).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/);

/** Can this machine make a read-only bind mount in a user namespace (Linux, unprivileged)? */
function canMountReadOnly(): boolean {
  if (process.platform !== 'linux') return false;
  const dir = tempDir();
  const probe = `mount --bind '${dir}' '${dir}' && mount -o remount,bind,ro '${dir}'`;
  return spawnSync('unshare', ['-rm', 'sh', '-c', probe]).status === 0;
}
const readOnlyMounts = canMountReadOnly();

describe('dubdesk doctor for a new user', () => {
  it('passes on a fresh home with the built-in sandbox: the key store is not needed yet', async () => {
    const home = join(tempDir(), 'Dubdesk');
    const r = await runCli(['doctor'], plainEnv(home));
    noStack(r);
    expect(failed(r.stdout)).toEqual([]);
    expect(r.stdout).toMatch(/^✓ Key store: (the system credential store answers|not needed yet)/m);
    expect(r.stdout).toMatch(/^✓ Service: the built-in sandbox is chosen/m);
    expect(r.code).toBe(0);
  });

  it('says which ffmpeg the audio path uses and its version: the one shipped with Dubdesk, PATH or not', async () => {
    const r = await runCli(['doctor'], plainEnv(join(tempDir(), 'Dubdesk'), { PATH: '/nonexistent' }));
    expect(r.stdout).toMatch(
      /^✓ ffmpeg: ffmpeg version \S+.*, shipped with Dubdesk: .*node_modules\/@ffmpeg-installer\/linux-x64\/ffmpeg$/m,
    );
  });

  it.runIf(process.platform === 'linux')(
    'says, without failing, what happens when a key is saved where no credential store answers',
    async () => {
      const r = await runCli(['doctor'], plainEnv(join(tempDir(), 'Dubdesk')));
      expect(r.stdout).toMatch(/^✓ Key store: not needed yet \(the built-in sandbox needs no key\)/m);
      expect(r.stdout).toMatch(
        /^ {4}note: no Secret Service \(GNOME Keyring or KWallet\) answered in this session\. /m,
      );
      expect(r.stdout).toContain('Install and unlock a Secret Service (GNOME Keyring or KWallet)');
      // Said once, with every way out: the file store can be chosen in Settings, at login, or by variable.
      const noteLine = r.stdout.split('\n').find((l) => l.startsWith('    note:')) ?? '';
      expect(noteLine.match(/answered in this session/g)).toHaveLength(1);
      expect(noteLine).toContain('DUBDESK_KEY_STORE=file');
      expect(r.code).toBe(0);
    },
  );

  it.runIf(process.platform === 'linux')(
    'fails the key store once the service is chosen and its key has nowhere to be kept',
    async () => {
      const r = await runCli(
        ['doctor'],
        plainEnv(join(tempDir(), 'Dubdesk'), { DUBDESK_BASE_URL: 'http://127.0.0.1:9' }),
      );
      expect(r.stdout).toMatch(
        /^✗ Key store: no Secret Service \(GNOME Keyring or KWallet\) answered in this session$/m,
      );
      expect(r.stdout).toContain('fix: Install and unlock a Secret Service (GNOME Keyring or KWallet)');
      expect(r.code).toBe(1);
    },
  );

  it.runIf(readOnlyMounts)('fails clearly on a read-only home, naming it and the way out', () => {
    const home = tempDir();
    expect(spawnSync(process.execPath, [CLI, 'doctor'], { env: plainEnv(home) }).status).toBe(0);
    const script = `mount --bind '${home}' '${home}' && mount -o remount,bind,ro '${home}' && exec '${process.execPath}' '${CLI}' doctor`;
    const r = spawnSync('unshare', ['-rm', 'sh', '-c', script], { env: plainEnv(home), encoding: 'utf8' });
    expect(r.stdout).toContain(`✗ Data folder: ${home} is on a read-only drive`);
    expect(r.stdout).toMatch(/✗ Data folder: .*\n {4}fix: Use a writable drive, or point Dubdesk at another/);
    expect(r.stdout + r.stderr).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/);
    expect(r.status).toBe(1);
  });

  it.runIf(readOnlyMounts)(
    'says a data folder not made yet on a read-only drive is on a read-only drive',
    () => {
      // A new user whose home (or DUBDESK_HOME's drive) is mounted read-only: the folder was never made.
      const drive = tempDir();
      const home = join(drive, 'Dubdesk');
      const script = `mount --bind '${drive}' '${drive}' && mount -o remount,bind,ro '${drive}' && exec '${process.execPath}' '${CLI}' doctor`;
      const r = spawnSync('unshare', ['-rm', 'sh', '-c', script], { env: plainEnv(home), encoding: 'utf8' });
      expect(r.stdout).toContain(`✗ Data folder: ${home} is on a read-only drive`);
      expect(r.stdout).not.toContain('ENOENT');
      expect(r.status).toBe(1);
    },
  );

  it('fails clearly on a damaged database, naming the file and the way back', async () => {
    const home = tempDir();
    mkdirSync(home, { recursive: true });
    expect((await runCli(['doctor'], plainEnv(home))).code).toBe(0); // a fresh home makes a real database
    const db = join(home, 'dubdesk.db');
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(Math.max(8192, statSync(db).size), 0x5a), 0, undefined, 4096);
    closeSync(fd);
    const r = await runCli(['doctor'], plainEnv(home));
    noStack(r);
    expect(failed(r.stdout).join('\n')).toMatch(
      /^✗ Queue database: .*dubdesk\.db (is damaged|cannot be read)/m,
    );
    expect(r.stdout).toContain('fix: Quit Dubdesk and run `dubdesk restore-db`');
    expect(r.code).toBe(1);
  });
});
