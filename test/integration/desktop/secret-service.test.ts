/**
 * The real OS credential store on Linux: a D-Bus session with GNOME Keyring unlocked in it (what a desktop
 * user has). `dubdesk login` stores the key there and the app's key store finds it. Skipped where
 * `dbus-run-session` or `gnome-keyring-daemon` is missing (`.ci/run` installs them).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp-dir';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const available = process.platform === 'linux' && has('dbus-run-session') && has('gnome-keyring-daemon');
const PROBE = join(__dirname, '../../helpers/key-store-probe.ts');

describe.runIf(available)('the Secret Service (GNOME Keyring in a D-Bus session)', () => {
  it('keeps the key that dubdesk login saved, out of service.json, and the app finds it', () => {
    const home = tempDir();
    const session = tempDir('dubdesk-session-');
    const script = [
      'set -e',
      `export HOME='${session}'`,
      "printf 'session-password' | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1",
      `printf 'sk-keyring-13579\\n' | '${process.execPath}' '${CLI}' login 2>"$HOME/login.err"`,
      `cat "$HOME/login.err" >&2`,
      `'${process.execPath}' --import tsx '${PROBE}' '${home}'`,
    ].join('\n');
    const env: NodeJS.ProcessEnv = { ...process.env, DUBDESK_HOME: home };
    delete env.DUBDESK_KEY_STORE;
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const r = spawnSync('dbus-run-session', ['--', 'bash', '-c', script], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('Saved to the system keychain.');
    const stdout = r.stdout;
    expect(JSON.parse(stdout)).toEqual({
      kind: 'os',
      key: 'sk-keyring-13579',
      storage: { store: 'os', osUnavailable: null, needsConsent: false },
    });
    let file = '';
    try {
      file = readFileSync(join(home, 'service.json'), 'utf8');
    } catch {
      /* nothing else was stored */
    }
    expect(file).not.toContain('sk-keyring');
  });
});
