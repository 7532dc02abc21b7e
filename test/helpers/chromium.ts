/**
 * The Chromium the browser tests drive. A run of the e2e tier starts one for all its test processes
 * (test/e2e-setup.ts) and each test process connects to it; anywhere else (a file run under another config,
 * a script) a test process launches its own. Either way every page is opened in a new context of it: a fresh
 * profile, with no cookie, storage or cache of another, as another person's browser would be.
 */
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { closeCounted } from './cpu-tree';

/** The Chromium the browser tests drive; CI on Windows and macOS names its own (DUBDESK_CHROMIUM). */
export const CHROMIUM = process.env.DUBDESK_CHROMIUM || '/usr/bin/chromium';

const LAUNCH = {
  executablePath: CHROMIUM,
  // Playwright's launch always starts from a fresh, temporary profile (it refuses --user-data-dir).
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--autoplay-policy=no-user-gesture-required',
  ],
  headless: true,
};

/** Where a test process finds the run's Chromium: its Playwright address. */
const SHARED = 'DUBDESK_TEST_CHROMIUM';

/** Starts the run's Chromium, before the test processes that inherit its address. */
export async function startSharedChromium(): Promise<BrowserServer> {
  const server = await chromium.launchServer(LAUNCH);
  process.env[SHARED] = server.wsEndpoint();
  return server;
}

let browser: Promise<Browser> | null = null;

/** The run's Chromium where there is one, else this process's own. */
export function launch(): Promise<Browser> {
  const shared = process.env[SHARED];
  browser ??= shared ? chromium.connect(shared) : chromium.launch(LAUNCH);
  return browser;
}

/** Closes what this process opened in it: every context, and the browser if it is this process's own. */
export async function closeBrowser(): Promise<void> {
  const b = browser;
  browser = null;
  if (b) await closeCounted(async () => (await b).close());
}
