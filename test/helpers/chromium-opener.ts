import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, OMNIBOX_POPUPS } from './chromium';
import { closeCounted } from './cpu-tree';
import { tempDir } from './temp-dir';
import { waitFor } from './http';

/** A host name the opened Chromium resolves to 127.0.0.1, as a re-pointed (rebound) name of another site. */
export const REBOUND_HOST = 'rebound.example';

/** The desktop's default browser, as `dubdesk serve` reaches it: real Chromium, started by the opener. */
export interface OpenedChromium {
  /** The browser's one profile: its tabs share cookies, as a person's tabs do. */
  readonly context: BrowserContext;
  /** The tab the opener started on what it was given. */
  readonly first: Page;
  /** What the opener was given (a path, an address): what anyone could read on its command line. */
  readonly argv: string;
  close(): Promise<void>;
}

export interface ChromiumOpener {
  /** The environment that makes `open` (the npm package) start this opener: PATH first, and $BROWSER. */
  env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Waits for the opener to have started Chromium, then drives it over DevTools. */
  opened(): Promise<OpenedChromium>;
}

/**
 * An opener that starts `/usr/bin/chromium` on whatever it is given, with a profile of its own and its
 * DevTools on a free port, which this test then connects to: what `serve` opens is what a person would see
 * in their default browser, the same navigation, the same headers, the same cookies. It is both `xdg-open`
 * first on PATH and `$BROWSER` (the xdg-open that the `open` package bundles ends at $BROWSER when no
 * desktop is set), with DISPLAY and the desktop's variables taken away so no other opener is tried.
 */
export function chromiumOpener(): ChromiumOpener {
  const dir = tempDir('dubdesk-opener-');
  const profile = join(dir, 'profile');
  const record = join(dir, 'argv.txt');
  const pidFile = join(dir, 'pid');
  const opener = join(dir, 'xdg-open');
  const flags = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-sync',
    '--disable-background-networking',
    '--disable-component-update',
    `--user-data-dir=${profile}`,
    '--remote-debugging-port=0',
    // A name of another site that points at this machine: what a DNS rebinding attack makes of a name.
    `--host-resolver-rules=MAP ${REBOUND_HOST} 127.0.0.1`,
    // Chromium's own Local Network Access checks would stop such a page before serve sees it; Firefox and
    // Safari have none, so serve's own rules are what the hostile tests must find holding.
    `--disable-features=${['LocalNetworkAccessChecks', ...OMNIBOX_POPUPS].join(',')}`,
  ];
  writeFileSync(
    opener,
    [
      '#!/bin/sh',
      `printf '%s\\n' "$@" >> '${record}'`,
      `echo $$ > '${pidFile}'`,
      `exec '${CHROMIUM}' ${flags.map((f) => `'${f}'`).join(' ')} "$@" >/dev/null 2>&1`,
      '',
    ].join('\n'),
  );
  chmodSync(opener, 0o755);

  return {
    env(base) {
      const { DISPLAY: _d, WAYLAND_DISPLAY: _w, XDG_CURRENT_DESKTOP: _x, ...env } = base;
      return { ...env, PATH: `${dir}:${env.PATH ?? ''}`, BROWSER: opener };
    },
    async opened() {
      const port = await waitFor('the opener to start Chromium', async () => {
        const file = join(profile, 'DevToolsActivePort');
        const first = existsSync(file) ? readFileSync(file, 'utf8').split('\n')[0] : '';
        return first ? Number(first) : undefined;
      });
      const browser: Browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const context = browser.contexts()[0];
      if (!context) throw new Error('Chromium has no default profile');
      const first = await waitFor('the opened tab', async () =>
        context.pages().find((p) => !p.url().startsWith('chrome')),
      );
      return {
        context,
        first,
        argv: readFileSync(record, 'utf8'),
        close: () =>
          closeCounted(async () => {
            // Browser.close ends the browser itself (disconnecting alone would leave it running).
            const cdp = await browser.newBrowserCDPSession();
            await cdp.send('Browser.close').catch(() => undefined);
            await browser.close().catch(() => undefined);
            const pid = Number(readFileSync(pidFile, 'utf8'));
            await waitFor('Chromium to exit', async () => {
              try {
                process.kill(pid, 0);
                return undefined;
              } catch {
                return true;
              }
            });
          }),
      };
    },
  };
}
