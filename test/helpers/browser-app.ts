import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
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
import { currentFace } from './face';
import { builtRenderer } from './renderer-build';
import { LogSink } from './serve';

/** The Chromium the browser tests drive; CI on Windows and macOS names its own (DUBDESK_CHROMIUM). */
export const CHROMIUM = process.env.DUBDESK_CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

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

let browser: Promise<Browser> | null = null;

/** The tests' own Chromium (one per test file); each of its contexts is a fresh profile, another browser. */
export function launch(): Promise<Browser> {
  browser ??= chromium.launch({
    executablePath: CHROMIUM,
    // Playwright's launch always starts from a fresh, temporary profile (it refuses --user-data-dir).
    args: CHROMIUM_ARGS,
    headless: true,
  });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  const b = browser;
  browser = null;
  if (b) await (await b).close();
}

/** Opens the app's address in a fresh browser context, recording console errors and failed requests. */
export async function openPage(
  app: RunningApp,
  opts: {
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
  } = {},
): Promise<Viewing> {
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
  await page.goto(app.server.url);
  return {
    browser: b,
    context,
    page,
    troubles,
    close: () => context.close(),
  };
}

/**
 * Where the e2e suites write their screenshots: a temporary folder, so `npm test` leaves the checkout as it
 * was; `DUBDESK_SCREENSHOTS=docs/screenshots` redraws the ones in docs/screenshots (CONTRIBUTING.md).
 */
export const SCREENSHOTS = process.env.DUBDESK_SCREENSHOTS
  ? resolve(process.env.DUBDESK_SCREENSHOTS)
  : join(tmpdir(), 'dubdesk-screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** The same moment in light and in dark (`NAME-light.png`, `NAME-dark.png`), left in light. */
export async function bothThemes(page: Page, name: string): Promise<void> {
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

export interface AppInBrowser {
  readonly app: RunningApp;
  readonly view: Viewing;
}

/**
 * One app and one page for the tests of a describe block: started before them, and the page, the browser and
 * the app closed after them. `prepare` runs between starting the app and opening the page (files to watch…);
 * `ready` waits for what the first test needs on the page.
 */
export function appInBrowser(
  opts: AppOptions = {},
  hooks: { prepare?: (app: RunningApp) => Promise<void>; ready?: (page: Page) => Promise<void> } = {},
): AppInBrowser {
  let app: RunningApp | undefined;
  let view: Viewing | undefined;
  beforeAll(async () => {
    // The same scenarios drive the desktop app under Electron when test/electron runs them.
    if (currentFace() === 'electron') {
      const { startDesktopApp } = await import('../electron/electron-app');
      ({ app, view } = await startDesktopApp(opts));
      await hooks.prepare?.(app);
    } else {
      app = await startApp(opts);
      await hooks.prepare?.(app);
      view = await openPage(app);
    }
    await hooks.ready?.(view.page);
  });
  afterAll(async () => {
    await view?.close();
    if (currentFace() === 'web') await closeBrowser();
    await app?.close();
  });
  return {
    get app() {
      if (!app) throw new Error('the app has not started');
      return app;
    },
    get view() {
      if (!view) throw new Error('the page is not open');
      return view;
    },
  };
}
