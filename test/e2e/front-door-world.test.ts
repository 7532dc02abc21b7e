/**
 * `npx dubdesk serve --sandbox` for a new user whose machine is not the developers': a data folder with a
 * space and Turkish letters in its name, a time zone fourteen hours east of UTC, and the C locale, which is
 * what a session gets whose locale was never generated on the machine (a Turkish one forwarded by ssh, a
 * minimal install) or that a service manager starts. The browser it opens (the desktop's default, real
 * Chromium) must show the working app: Chromium reads a path given on its command line in the locale's
 * character set, and in ASCII it cannot find "Klasörü İş".
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATIENT, screenshot } from '../helpers/browser-app';
import { servedByCli, shown } from '../helpers/serve-cli';

describe('serve with its data folder in "Ev Klasörü İş", in the C locale, on Kiritimati time', () => {
  const served = servedByCli({
    env: ({ LC_ALL: _all, LC_CTYPE: _ctype, ...env }) => ({
      ...env,
      DUBDESK_HOME: join(env.DUBDESK_HOME ?? '', 'Ev Klasörü İş', 'Dubdesk'),
      LANG: 'C',
      TZ: 'Pacific/Kiritimati',
    }),
  });

  it('opens a tab that shows the working app', async () => {
    const { first, argv } = served.chrome;
    await expect.poll(() => shown(first), PATIENT).toBe('the app');
    // What the opener was given names the data folder's page (not the address with its code).
    expect(decodeURIComponent(argv)).toContain('Ev Klasörü İş/Dubdesk');
    await screenshot(first, 'front-door-world');
  });

  it('the CLI beside it, in the same world, reads the same queue', async () => {
    const r = await served.cli(['status']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
