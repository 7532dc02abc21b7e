import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { openedPages, type OtherPage, type Viewing } from './browser-app';
import { chromiumOpener, type OpenedChromium } from './chromium-opener';
import { runCli, startCli, type CliResult } from './cli';
import { tempDir } from './temp-dir';
import { builtRenderer } from './renderer-build';
import { firstLine, serveEnv } from './serve';

/** `npx dubdesk serve --sandbox` run as a person runs it, and the browser it opened. */
export interface ServedByCli {
  /** The address it printed first (one-time). */
  readonly printed: string;
  readonly origin: string;
  readonly home: string;
  /** The environment it runs in: `dubdesk serve --link` in another process uses the same. */
  readonly env: NodeJS.ProcessEnv;
  /** The default browser it opened (real Chromium, started by the opener it was given). */
  readonly chrome: OpenedChromium;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** `dubdesk ARGS` in another process, on the same data folder. */
  cli(args: string[]): Promise<CliResult>;
  /** Another browser (a fresh profile of the tests' own) on `at`, the printed address unless told. */
  open(look?: OtherPage): Promise<Viewing>;
}

export interface ServedByCliOptions {
  /** Open the printed address in the desktop's default browser (real Chromium), as serve does unless told. */
  opener?: boolean;
  /** The environment serve runs in, from the one a user's shell would give it. */
  env?: (env: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
}

/**
 * Starts `dubdesk serve --sandbox --port 0` before the tests of a describe block, its opener replaced by one
 * that starts real Chromium (or with --no-open, `opener: false`); after them, stops both and closes the pages
 * the tests opened.
 */
export function servedByCli({
  opener: opens = true,
  env: world = (e) => e,
}: ServedByCliOptions = {}): ServedByCli {
  let child: ReturnType<typeof startCli>['child'] | undefined;
  let done: Promise<CliResult> | undefined;
  let printed = '';
  let chrome: OpenedChromium | undefined;
  let stderr = '';
  const home = tempDir('dubdesk-serve-home-');
  let env: NodeJS.ProcessEnv = {};
  const pages = openedPages();

  beforeAll(async () => {
    const opener = opens ? chromiumOpener() : null;
    const shell = world(serveEnv(home));
    env = { ...(opener?.env(shell) ?? shell), DUBDESK_RENDERER_DIR: await builtRenderer() };
    const args = ['serve', '--sandbox', '--port', '0', ...(opener ? [] : ['--no-open'])];
    ({ child, done } = startCli(args, env));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    printed = await firstLine(child);
    chrome = await opener?.opened();
  });
  afterAll(async () => {
    await pages.closeAll();
    await chrome?.close();
    child?.kill('SIGINT');
    await done;
  });

  return {
    get printed() {
      return printed;
    },
    get origin() {
      return new URL(printed).origin;
    },
    home,
    get env() {
      return env;
    },
    get chrome() {
      if (!chrome) throw new Error('the browser was not opened');
      return chrome;
    },
    stderr: () => stderr,
    cli: (args) => runCli(args, env),
    open: ({ at, ...look } = {}) => pages.open(at ?? printed, look),
  };
}

/**
 * What a tab shows: `the app` when it works (the queue's Add button, and the balance the service
 * answered, which only a call with a session gets), or the first words of whatever else is there (an
 * app without a session shows its Add button, zeros and errors: that is not the app working).
 */
export async function shown(page: Page): Promise<string> {
  const text = (
    (await page
      .locator('body')
      .textContent()
      .catch(() => '')) ?? ''
  ).trim();
  const working =
    (await page.getByRole('button', { name: '+ Add files' }).count()) > 0 &&
    /[\d,]+ cr \/ [\d,]+ cr/.test(text) &&
    !/session token/.test(text);
  if (working) return 'the app';
  return text ? text.slice(0, 300) : 'nothing yet';
}
