/**
 * The browser tests' world, made before the tests of a describe block and taken down after them: a home with
 * the sandbox, `dubdesk serve` (test/helpers/browser-app.ts: the same server, engine and worker, in this
 * process) or, under test/electron, the desktop app, and the printed link opened in a fresh Chromium profile,
 * as a person opens it. Everything it opened is closed after the tests, the pages first and the app last.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startServer, type DubdeskServer } from '../../electron/web/server';
import {
  openedPages,
  startApp,
  type AppOptions,
  type OtherPage,
  type PageOptions,
  type RunningApp,
  type Viewing,
} from './browser-app';
import { currentFace } from './face';
import { builtRenderer } from './renderer-build';
import { withWhatThePageShowed } from './page-failure';

export interface OpenedAppOptions extends AppOptions {
  /** Runs once the app has started, before the page opens (a folder to watch, a job already queued). */
  started?: (app: RunningApp) => Promise<unknown>;
  /** The first page's window and world (or what makes them, once the app started); `false` opens none. */
  page?: PageOptions | ((app: RunningApp) => PageOptions) | false;
  /** Waits for what the first test needs on the page. */
  ready?: (page: Page) => Promise<void>;
}

export interface OpenedApp {
  readonly app: RunningApp;
  /** The page opened before the tests. */
  readonly view: Viewing;
  /** A page of another browser, closed after the tests if the test does not close it first. */
  open(opts?: OtherPage): Promise<Viewing>;
  /** `drive` on a page of its own (its troubles beside it), closed when it ends, passed or failed. */
  inPage<T>(opts: OtherPage, drive: (page: Page, view: Viewing) => Promise<T>): Promise<T>;
  /** `dubdesk serve` started again on the port of the one the test closed: every session forgotten. */
  serveAgain(): Promise<DubdeskServer>;
}

export function openedApp(opts: OpenedAppOptions = {}): OpenedApp {
  const { started, page: look = {}, ready, ...appOptions } = opts;
  let app: RunningApp | undefined;
  let first: Viewing | undefined;
  const pages = openedPages();
  const servers: DubdeskServer[] = [];

  const running = (): RunningApp => {
    if (!app) throw new Error('the app has not started');
    return app;
  };
  const inBrowserFace = (what: string) => {
    if (currentFace() !== 'web') throw new Error(`${what} is the browser face's: the desktop has one window`);
  };
  const open = ({ at, ...look }: OtherPage = {}): Promise<Viewing> => {
    inBrowserFace('another page');
    return pages.open(at ?? running().server.url, look);
  };

  beforeAll(async () => {
    // The same scenarios drive the desktop app under Electron when test/electron runs them.
    if (currentFace() === 'electron') {
      const { startDesktopApp } = await import('../electron/electron-app');
      ({ app, view: first } = await startDesktopApp(appOptions));
      await started?.(app);
    } else {
      app = await startApp(appOptions);
      await started?.(app);
      if (look) first = await open(typeof look === 'function' ? look(app) : look);
    }
    if (first) await ready?.(first.page);
  });
  afterAll(async () => {
    if (currentFace() === 'web') await pages.closeAll();
    for (const server of servers.splice(0).reverse()) await server.close();
    await app?.close();
  });

  return {
    get app() {
      return running();
    },
    get view() {
      if (!first) throw new Error('no page was opened before the tests');
      return first;
    },
    open,
    async inPage(look, drive) {
      const view = await open(look);
      try {
        return await drive(view.page, view);
      } catch (e) {
        throw await withWhatThePageShowed(e, view);
      } finally {
        await view.close();
      }
    },
    async serveAgain() {
      inBrowserFace('serve');
      const { host, server } = running();
      const again = await startServer({
        engine: host,
        port: server.port,
        rendererDir: await builtRenderer(),
      });
      servers.push(again);
      return again;
    },
  };
}
