import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { startServer, type DubdeskServer, type ServeOptions } from '../../electron/web/server';
import type { FolderEnv } from '../../electron/web/downloads-folder';
import { workQueue } from '../../electron/web/worker';
import {
  openDubdesk,
  type DubdeskHost,
  type EngineOptions,
  type QueueWorker,
} from '../../electron/engine/index';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server';
import type { SandboxOptionsInput } from '../../electron/sandbox/options';
import { tempDir } from './temp-dir';
import { closeBrowser, launch } from './chromium';
import { builtRenderer } from './renderer-build';
import { LogSink } from './serve';

export interface AppOptions {
  sandbox?: SandboxOptionsInput;
  /** Runs on the fresh data folder before the engine opens it (seeding), with the sandbox it will use. */
  prepare?: (home: string, sandbox: Sandbox) => void;
  /** Work the queue, as `dubdesk serve` does (off for a seeded queue nobody should touch). */
  work?: boolean;
  /** Nothing configured: a first run, where the sandbox is only the fallback (as `serve` without flags). */
  firstRun?: boolean;
  /** Where serve looks for the user's Downloads folder (a temporary home). */
  folders?: FolderEnv;
  /** More engine options (a when-done executor that records instead of shutting the machine down). */
  engine?: Partial<EngineOptions>;
  /** More server options (a short heartbeat on the event stream). */
  server?: Pick<ServeOptions, 'heartbeatMs'>;
}

/**
 * `dubdesk serve` as the CLI runs it (the same server, engine and worker), in this process, against an
 * in-process sandbox this test can steer (faults, balance), with the renderer built as shipped.
 */
export interface RunningApp {
  sb: Sandbox;
  host: DubdeskHost;
  server: DubdeskServer;
  home: string;
  close(): Promise<void>;
}

export async function startApp(opts: AppOptions = {}): Promise<RunningApp> {
  const rendererDir = await builtRenderer();
  // Without ffmpeg the sandbox's results are copies of the upload: the page shows and plays them the same,
  // and the run spends its CPU on the app, not on re-encoding (the sandbox's media work has tests of its own).
  const sb = await startSandbox({ pipelineSeconds: 1, ffmpeg: false, ...opts.sandbox });
  const home = tempDir('dubdesk-e2e-');
  opts.prepare?.(home, sb);
  const host = openDubdesk({
    home,
    face: 'web',
    service: opts.firstRun ? {} : { baseUrl: sb.baseUrl, legacyUrl: sb.legacyUrl, apiKey: sb.account.apiKey },
    startSandbox: async () => ({
      baseUrl: sb.baseUrl,
      legacyUrl: sb.legacyUrl,
      apiKey: sb.account.apiKey,
      stop: async () => undefined,
    }),
    backoff: { baseMs: 200, capMs: 1000 },
    checkOutputs: true,
    ...opts.engine,
  });
  await host.api.setSettings({ pollIntervalSeconds: 0.2 });
  const server = await startServer({
    engine: host,
    port: 0,
    rendererDir,
    log: { stream: new LogSink(), level: 'warn' },
    // The user's Downloads folder is this test's own: a browser's files saved with no folder chosen land there.
    folders: opts.folders ?? { home: join(home, 'user'), env: {}, platform: 'linux' },
    ...opts.server,
  });
  let worker: QueueWorker | null = null;
  if (opts.work !== false) worker = workQueue(host, () => undefined);
  return {
    sb,
    host,
    server,
    home,
    async close() {
      worker?.stop();
      await worker?.stopped;
      await server.close();
      await host.close();
      await sb.stop();
    },
  };
}

/** A page's troubles: console errors and failed requests, which every test expects to stay empty. */
export interface Troubles {
  console: string[];
  requests: string[];
}

export interface Viewing {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  troubles: Troubles;
  close(): Promise<void>;
}

/** A browser window's size and world: what differs between two people's browsers. */
export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  width?: number;
  height?: number;
  zoom?: number;
  /** The browser's time zone and language (the machine's when not given). */
  timezoneId?: string;
  locale?: string;
  /** The proxy the browser goes through (`http://host:port`); none when not given. */
  proxy?: string;
  /** Runs on the fresh context before the address is opened (routes that hold or change requests). */
  beforeOpen?: (context: BrowserContext) => Promise<void>;
}

/** Another browser's page: the printed link, or `at` (a plain or a used address), in a fresh profile. */
export type OtherPage = PageOptions & { at?: string };

/** A 1280 x 800 window at 200% zoom: 640 x 400 CSS pixels. */
export const ZOOM_200 = { width: 640, height: 400, zoom: 2 } as const satisfies PageOptions;

/** Opens `address` in a fresh browser context (a fresh profile), recording console errors and failed requests. */
export async function openPage(address: string, opts: PageOptions = {}): Promise<Viewing> {
  const b = await launch();
  const context = await b.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    deviceScaleFactor: opts.zoom ?? 1,
    colorScheme: opts.colorScheme ?? 'light',
    timezoneId: opts.timezoneId,
    locale: opts.locale,
    ...(opts.proxy ? { proxy: { server: opts.proxy } } : {}),
  });
  const page = await context.newPage();
  const troubles: Troubles = { console: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') troubles.console.push(m.text());
  });
  page.on('pageerror', (e) => troubles.console.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText ?? '';
    // A media element drops its own range request when it switches source or seeks: not a failure.
    if (why === 'net::ERR_ABORTED' && ['media', 'eventsource'].includes(r.resourceType())) return;
    troubles.requests.push(`${r.method()} ${new URL(r.url()).pathname}: ${why}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400)
      troubles.requests.push(`${r.request().method()} ${new URL(r.url()).pathname}: ${r.status()}`);
  });
  await opts.beforeOpen?.(context);
  await page.goto(address);
  return {
    browser: b,
    context,
    page,
    troubles,
    close: () => context.close(),
  };
}

/** The pages a describe block's tests open, each in a fresh profile of the tests' browser, all closed after them. */
export function openedPages() {
  const pages = new Set<Viewing>();
  return {
    async open(address: string, look: PageOptions = {}): Promise<Viewing> {
      const view = await openPage(address, look);
      const kept: Viewing = {
        ...view,
        close: async () => {
          pages.delete(kept);
          await view.close();
        },
      };
      pages.add(kept);
      return kept;
    },
    /** Every page still open, last first, and then the browser. */
    async closeAll(): Promise<void> {
      for (const view of [...pages].reverse()) await view.close();
      await closeBrowser();
    },
  };
}

/**
 * Where a download was saved, under the name the browser gave it, in a folder of this test's own: the file the
 * browser wrote is the run's Chromium's (test/e2e-setup.ts), which Playwright copies here.
 */
export async function saved(download: Download): Promise<string> {
  const path = join(tempDir('dubdesk-download-'), download.suggestedFilename());
  await download.saveAs(path);
  return path;
}

/**
 * Where the pictures of the app go when someone will look at them: `DUBDESK_SCREENSHOTS=docs/screenshots`
 * redraws the ones in docs/screenshots (CONTRIBUTING.md). Under `npm test` nobody does, and none is taken
 * (a PNG of a whole page each, over a hundred a run), except the picture of a page whose test failed.
 */
const DRAWN = process.env.DUBDESK_SCREENSHOTS ? resolve(process.env.DUBDESK_SCREENSHOTS) : null;
/** Where a failed test's picture goes when nothing is drawn: a temporary folder, the checkout left as it was. */
const FAILED = join(tmpdir(), 'dubdesk-screenshots');

async function shot(page: Page, dir: string, name: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** The page as `NAME.png` in DUBDESK_SCREENSHOTS, when it is set. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (DRAWN) await shot(page, DRAWN, name);
}

/** The page of a failed test, where the failure's message says (test/helpers/page-failure.ts). */
export const failureScreenshot = (page: Page, name: string): Promise<string> =>
  shot(page, DRAWN ?? FAILED, name);

/**
 * The same moment in light and in dark (`NAME-light.png`, `NAME-dark.png`) in DUBDESK_SCREENSHOTS, left in
 * light; nothing when it is not set.
 */
export async function bothThemes(page: Page, name: string): Promise<void> {
  if (!DRAWN) return;
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * How long a browser test waits for the page to show something. Not a speed target: a machine shared by
 * many can take seconds to probe a file or answer a request, and a test fails only when it never happens.
 */
export const PATIENT = { timeout: 30_000, interval: 100 };

/** The page is ready for the tests that start from the queue. */
export const addButtonShown = (page: Page): Promise<void> =>
  page.getByRole('button', { name: '+ Add files' }).waitFor();
