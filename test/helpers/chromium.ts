/**
 * The Chromium the browser tests drive. A run of the e2e tier starts one for all its test processes
 * (test/e2e-setup.ts) and each test process connects to it; anywhere else (a file run under another config,
 * a script) a test process launches its own. Either way every page is opened in a new context of it: a fresh
 * profile, with no cookie, storage or cache of another, as another person's browser would be.
 */
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { closeCounted } from './cpu-tree';

/** The Chromium the browser tests drive; CI on Windows and macOS names its own (DUBDESK_CHROMIUM). */
export const CHROMIUM = process.env.DUBDESK_CHROMIUM || '/usr/bin/chromium';

/**
 * Chromium 156 makes each new window (a fresh context is one) its own omnibox popups, web pages in a renderer
 * of their own: nothing a test looks at, and about a third of the run's Chromium CPU (as the bench found:
 * test/bench/ui.ts).
 */
export const OMNIBOX_POPUPS = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];
/**
 * What Playwright's own `--disable-features` holds. Chromium keeps only the last `--disable-features` it is
 * given, and Playwright puts ours after its own: ours carries both lists, and startSharedChromium checks
 * that nothing of Playwright's was dropped.
 */
const PLAYWRIGHTS = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The one `--disable-features` a Chromium that Playwright launches may be given (anything launched through
 * Playwright: the tests, the benches): Playwright's own list, the omnibox popups, and `more`.
 */
export const disabledFeatures = (...more: string[]): string =>
  `--disable-features=${[...PLAYWRIGHTS, ...OMNIBOX_POPUPS, ...more].join(',')}`;

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
    disabledFeatures(),
  ],
  headless: true,
};

/**
 * The features an earlier `--disable-features` of Chromium's command line disabled that its last one (the
 * one Chromium keeps) leaves on, read from /proc where there is one: a Playwright that disables more than
 * PLAYWRIGHTS says.
 */
function featuresDropped(pid: number | undefined): string[] {
  const cmdline = `/proc/${pid}/cmdline`;
  if (pid === undefined || !existsSync(cmdline)) return [];
  const lists = readFileSync(cmdline, 'utf8')
    .split('\0')
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
  const kept = new Set(lists.at(-1));
  return lists.flat().filter((feature) => !kept.has(feature));
}

/** Where a test process finds the run's Chromium: its Playwright address. */
const SHARED = 'DUBDESK_TEST_CHROMIUM';

/** Starts the run's Chromium, before the test processes that inherit its address. */
export async function startSharedChromium(): Promise<BrowserServer> {
  const server = await chromium.launchServer(LAUNCH);
  const dropped = featuresDropped(server.process().pid);
  if (dropped.length) {
    await server.close();
    throw new Error(
      `Playwright now disables ${dropped.join(', ')} in Chromium: add it to PLAYWRIGHTS in test/helpers/chromium.ts`,
    );
  }
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
