import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { PATIENT, screenshot } from '../helpers/browser-app';
import { servedByCli, shown } from '../helpers/serve-cli';
import { tempDir } from '../helpers/temp-dir';

/** A laptop's window. */
const WINDOW = { width: 1000, height: 700 };

const LINK_LINE = /^http:\/\/127\.0\.0\.1:\d+\/#code=[A-Za-z0-9_-]{43}$/;

describe('`npx dubdesk serve --sandbox` as a person meets it: the browser it opens', () => {
  const served = servedByCli();

  it('opens a tab that shows the working app, not an error document', async () => {
    const { first, argv } = served.chrome;
    await expect.poll(() => shown(first), PATIENT).toBe('the app');
    // Nothing secret on the opener's command line: a path, not the address with its code.
    expect(argv).not.toContain('code=');
    expect(argv).not.toContain(served.printed);
    // The code is out of the address bar once traded.
    expect(first.url()).not.toContain('code=');
    await screenshot(first, 'front-door-opened');
  });

  it('a second tab of the same browser, on the plain address, shows the app too', async () => {
    const tab = await served.chrome.context.newPage();
    await tab.goto(`${served.origin}/`);
    await expect.poll(() => shown(tab), PATIENT).toBe('the app');
    await screenshot(tab, 'front-door-second-tab');
    await tab.emulateMedia({ colorScheme: 'dark' });
    await screenshot(tab, 'front-door-second-tab-dark');
    await tab.close();
  });

  it('a reload, and a tab found in the history, keep working', async () => {
    const { first } = served.chrome;
    await first.reload();
    await expect.poll(() => shown(first), PATIENT).toBe('the app');
    const tab = await served.chrome.context.newPage();
    // The address as the history has it after the first trade (its code taken out): and the printed one,
    // opened here twice: once trades it, the second finds it used, but this browser is signed in already.
    for (const address of [first.url(), served.printed, served.printed]) {
      // From elsewhere each time: a change of the fragment alone would not load the page again.
      await tab.goto('about:blank');
      await tab.goto(address);
      await expect.poll(() => shown(tab), PATIENT).toBe('the app');
    }
    await tab.close();
  });

  it('an address used already, in another browser, says how to get a new one', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      // Another browser: a fresh profile, with no session of this Dubdesk.
      const other = await served.open({ ...WINDOW, colorScheme });
      const tab = other.page;
      await expect.poll(() => shown(tab), PATIENT).toMatch(/^This address was used already/);
      expect(await tab.getByText('npx dubdesk serve --link').count()).toBe(1);
      expect(await seriousViolations(tab)).toEqual([]);
      await screenshot(tab, `front-door-used-link-${colorScheme}`);
      await other.close();
    }
  });

  it('`dubdesk serve --link` in another process prints a new address for the running serve', async () => {
    const r = await served.cli(['serve', '--link']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(LINK_LINE);
    expect(new URL(lines[0] ?? '').origin).toBe(served.origin);
    expect(r.stderr).toMatch(/works once/);
    const other = await served.open({ ...WINDOW, at: lines[0] ?? '' });
    await expect.poll(() => shown(other.page), PATIENT).toBe('the app');
    await other.close();
  });

  it('`dubdesk serve --link` with no serve running says so and how to start one', async () => {
    const r = await served.cli(['--home', tempDir(), 'serve', '--link']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no `dubdesk serve` is running/);
    expect(r.stderr).toMatch(/npx dubdesk serve/);
  });
});
