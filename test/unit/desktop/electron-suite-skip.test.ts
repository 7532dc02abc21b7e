/**
 * Where Electron's binary is absent (as on this machine), the desktop suite's step of `npm test` prints one
 * line saying it was skipped and why, and runs nothing; on CI (DUBDESK_REQUIRE_ELECTRON=1) that fails.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dir';

const SUITE = join(__dirname, '../../electron/run-suite.mjs');
const run = (env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [SUITE], {
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: tempDir('no-electron-'), ...env },
  });

describe('the desktop suite without Electron', () => {
  it('prints one line saying it was skipped and why, and runs nothing', () => {
    const { DUBDESK_REQUIRE_ELECTRON: _ignored, ...env } = process.env;
    const r = run({ ...env, DUBDESK_REQUIRE_ELECTRON: '' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(
      /^desktop suite \(test\/electron\) skipped: ELECTRON_OVERRIDE_DIST_PATH has no Electron/,
    );
    expect(r.stdout).toContain('once it is: npm run test:electron');
    expect(r.stderr).toBe('');
  });

  it('fails where the suite is required (CI)', () => {
    const r = run({ DUBDESK_REQUIRE_ELECTRON: '1' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^desktop suite \(test\/electron\) cannot run: /);
  });
});
