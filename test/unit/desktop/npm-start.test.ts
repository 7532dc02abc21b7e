/**
 * `npm start` on Ubuntu 23.10+ (issue 30, review item 6): AppArmor refuses unprivileged user namespaces and
 * node_modules' chrome-sandbox is not setuid root, so Electron would abort with Chromium's FATAL line. The
 * start script says what is wrong and the two ways out instead, and `npm start -- --no-sandbox` starts.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxProblem, usernsRestricted } from '../../../scripts/start-electron.mjs';
import { tempDir } from '../../helpers/temp-dir';

const root = join(__dirname, '../../..');
const helper = { path: 'node_modules/electron/dist/chrome-sandbox', uid: 1000, mode: 0o100755 };

describe('npm start on a Linux that restricts user namespaces', () => {
  it('names the problem and both fixes when chrome-sandbox is not setuid root', () => {
    const said = sandboxProblem({ platform: 'linux', args: [], sandbox: helper, usernsRestricted: true });
    expect(said).toContain('AppArmor (Ubuntu 23.10 and later) does not let programs');
    expect(said).toContain(
      'sudo chown root:root node_modules/electron/dist/chrome-sandbox && sudo chmod 4755 node_modules/electron/dist/chrome-sandbox',
    );
    expect(said).toContain('npm start -- --no-sandbox');
  });

  it('lets Electron start where the sandbox can work, or where it is switched off', () => {
    const setuid = { ...helper, uid: 0, mode: 0o104755 };
    expect(
      sandboxProblem({ platform: 'linux', args: [], sandbox: setuid, usernsRestricted: true }),
    ).toBeNull();
    expect(
      sandboxProblem({ platform: 'linux', args: [], sandbox: helper, usernsRestricted: false }),
    ).toBeNull();
    expect(
      sandboxProblem({ platform: 'linux', args: ['--no-sandbox'], sandbox: helper, usernsRestricted: true }),
    ).toBeNull();
    expect(
      sandboxProblem({ platform: 'darwin', args: [], sandbox: null, usernsRestricted: true }),
    ).toBeNull();
  });

  it('reads the restriction from AppArmor’s switch, or Debian’s older one', () => {
    const files = (values: Record<string, string>) => (file: string) => {
      if (file in values) return `${values[file]}\n`;
      throw new Error('ENOENT');
    };
    expect(usernsRestricted(files({ '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '1' }))).toBe(
      true,
    );
    expect(usernsRestricted(files({ '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '0' }))).toBe(
      false,
    );
    expect(usernsRestricted(files({ '/proc/sys/kernel/unprivileged_userns_clone': '0' }))).toBe(true);
    expect(usernsRestricted(files({}))).toBe(false);
  });

  it('stops before Electron with that message, and starts it with `-- --no-sandbox`', (ctx) => {
    if (process.platform !== 'linux')
      ctx.skip('Linux only: the check and its stand-in Electron are a shell script');
    const dist = tempDir('dubdesk-electron-');
    // A stand-in Electron that prints how it was started, beside a chrome-sandbox npm left unprivileged.
    writeFileSync(join(dist, 'electron'), '#!/bin/sh\necho "electron $*"\n');
    chmodSync(join(dist, 'electron'), 0o755);
    writeFileSync(join(dist, 'chrome-sandbox'), '');
    chmodSync(join(dist, 'chrome-sandbox'), 0o755);
    const start = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, 'scripts', 'start-electron.mjs'), ...args], {
        encoding: 'utf8',
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: dist, DUBDESK_USERNS_RESTRICTED: '1' },
      });
    const refused = start();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Electron cannot start its sandbox on this Linux');
    expect(refused.stderr).toContain('chmod 4755');
    expect(refused.stdout).not.toContain('electron ');
    const started = start('--no-sandbox');
    expect(started.status).toBe(0);
    expect(started.stdout.trim()).toBe(`electron --no-sandbox ${root}`);
  });
});
