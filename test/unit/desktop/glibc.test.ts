/**
 * The oldest Linux Dubdesk runs on (issue 30, review item 15): better-sqlite3's prebuild needs glibc 2.34.
 * `dubdesk doctor` names the C library and says plainly when it is too old, and when it is so old that the
 * CLI cannot even load its native modules, the launcher says the same in the doctor's words.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainLoadFailure } from '../../../electron/cli/load-failure.mjs';
import { GLIBC_MINIMUM, systemCheck } from '../../../electron/engine/doctor/system';
import { tempDir } from '../../helpers/temp-dir';

/** What dlopen says on Ubuntu 20.04 when better-sqlite3's prebuild is loaded. */
const DLOPEN = new Error(
  "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by /opt/dubdesk/node_modules/better-sqlite3/prebuilds/linux-x64.node)",
);

describe('the C library', () => {
  it('passes glibc 2.34 and newer, fails older ones with the fix, and is not checked off Linux', () => {
    expect(GLIBC_MINIMUM).toBe('2.34');
    expect(systemCheck('linux', '2.39')).toEqual({ title: 'System', ok: true, detail: 'glibc 2.39' });
    expect(systemCheck('linux', '2.34')?.ok).toBe(true);
    expect(systemCheck('linux', '2.31')).toMatchObject({
      ok: false,
      detail: "glibc 2.31 is older than the 2.34 Dubdesk's native modules need",
      fix: expect.stringContaining('Ubuntu 22.04, Debian 12'),
    });
    expect(systemCheck('linux', null)?.ok).toBe(false);
    expect(systemCheck('darwin', null)).toBeNull();
  });

  it('is named by dubdesk doctor on this Linux', (ctx) => {
    if (process.platform !== 'linux') ctx.skip('Linux only: doctor names the C library there alone');
    const cli = join(__dirname, '../../../electron/cli/dubdesk.mjs');
    const r = spawnSync(process.execPath, [cli, 'doctor', '--home', join(tempDir(), 'Dubdesk')], {
      encoding: 'utf8',
      env: { ...process.env, DUBDESK_KEY_STORE: 'file' },
      timeout: 120_000,
    });
    expect(r.stdout).toMatch(/^✓ System: glibc \d+\.\d+$/m);
  });

  it('too old to load the native modules: the launcher says so, as the doctor would', () => {
    expect(explainLoadFailure(DLOPEN, ['doctor'], '2.31')).toEqual({
      text:
        '✗ System: glibc 2.31 is older than the 2.34 Dubdesk’s native modules need\n' +
        '    fix: Use a Linux with glibc 2.34 or newer: Ubuntu 22.04, Debian 12, Fedora 35, RHEL 9 or later (or run Dubdesk in a container with one).\n',
      code: 1,
    });
    expect(explainLoadFailure(DLOPEN, ['dub', 'a.mp4'], '2.31').text).toMatch(
      /^dubdesk: cannot start: glibc 2\.31 is older than the 2\.34 .* Ubuntu 22\.04/,
    );
    expect(explainLoadFailure(new Error('Cannot find module x'), ['dub'], '2.39').text).toBe(
      'dubdesk: cannot start (Cannot find module x); run `npm install` again.\n',
    );
  });
});
