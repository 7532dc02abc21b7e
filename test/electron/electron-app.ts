/**
 * The desktop app as users get it, driven by Playwright's `_electron`: the built app (dist/), a temporary
 * home, the key in the owner-only file, and a sandbox this test steers (or, on a first run, the app's own
 * built-in one). It offers the shape the browser face's scenarios use (`app.host.api`, `app.sb`, `view.page`),
 * so test/e2e runs here unchanged.
 */
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import type { DubdeskApi } from '../../shared/contract/methods';
import type { DubdeskServer } from '../../electron/web/server';
import type { DubdeskHost } from '../../electron/engine/index';
import { startSandbox } from '../../electron/sandbox/server';
import type { AppOptions, RunningApp, Troubles, Viewing } from '../helpers/browser-app';
import { tempDir } from '../helpers/temp-dir';
import { electronBinary, ROOT } from './binary.mjs';

export interface DesktopRun {
  electron: ElectronApplication;
  page: Page;
  home: string;
  troubles: Troubles;
}

function binary(): string {
  const found = electronBinary();
  if ('missing' in found) throw new Error(`Electron is not here: ${found.missing}`);
  return found.path;
}

/** Starts the built app on `home` with `env` (DUBDESK_*), and waits for its window. */
export async function launchDesktop(
  home: string,
  env: NodeJS.ProcessEnv = {},
  args: readonly string[] = [],
): Promise<DesktopRun> {
  const electron = await _electron.launch({
    executablePath: binary(),
    // The project folder: package.json's main is dist/electron/main.cjs, and its version is the app's.
    args: [...(process.platform === 'linux' ? ['--no-sandbox'] : []), ROOT, ...args],
    cwd: ROOT,
    env: { ...process.env, DUBDESK_HOME: home, DUBDESK_KEY_STORE: 'file', ...env } as Record<string, string>,
  });
  const page = await electron.firstWindow();
  const troubles: Troubles = { console: [], requests: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') troubles.console.push(m.text());
  });
  page.on('pageerror', (e) => troubles.console.push(`pageerror: ${e.message}`));
  await page.waitForLoadState('domcontentloaded');
  return { electron, page, home, troubles };
}

/** The contract as the window has it (`window.dubdesk`, over the preload's IPC): what the scenarios assert on. */
export function apiThroughWindow(page: Page): DubdeskApi {
  return new Proxy({} as DubdeskApi, {
    get: (_target, name) => {
      if (name === 'subscribe') return () => () => {};
      return (arg?: unknown) =>
        page.evaluate(
          ([method, a]) =>
            (window as unknown as { dubdesk: Record<string, (x: unknown) => Promise<unknown>> }).dubdesk[
              method as string
            ]?.(a),
          [String(name), arg] as const,
        );
    },
  });
}

/** Every native open-file dialog answers with `paths` (the user picking them). */
export async function stubOpenDialog(electron: ElectronApplication, paths: readonly string[]): Promise<void> {
  await electron.evaluate(
    ({ dialog }, picked) => {
      dialog.showOpenDialog = (async () => ({
        canceled: false,
        filePaths: picked,
      })) as typeof dialog.showOpenDialog;
    },
    [...paths],
  );
}

/** The app the shared scenarios started last (they reach it for what only the desktop has). */
export let lastDesktop: DesktopRun | null = null;

/** The browser face's `startApp` and `openPage`, for the desktop: one app, one window. */
export async function startDesktopApp(
  opts: AppOptions,
): Promise<{ app: RunningApp; view: Viewing; run: DesktopRun }> {
  const sb = await startSandbox({ pipelineSeconds: 1, ...opts.sandbox });
  const home = tempDir('dubdesk-electron-');
  opts.prepare?.(home, sb);
  const env = opts.firstRun
    ? {}
    : { DUBDESK_BASE_URL: sb.baseUrl, DUBDESK_LEGACY_URL: sb.legacyUrl, DUBDESK_API_KEY: sb.account.apiKey };
  const run = await launchDesktop(home, env);
  lastDesktop = run;
  const api = apiThroughWindow(run.page);
  await run.page.waitForFunction(() => 'dubdesk' in window);
  await api.setSettings({ pollIntervalSeconds: 0.2 });
  const close = async () => {
    await run.electron.close();
    await sb.stop();
  };
  const host: DubdeskHost = {
    api,
    home,
    run: () => Promise.reject(new Error('the desktop app works its own queue')),
    wake: () => {},
    recover: () => Promise.resolve(null),
    close: async () => {},
  };
  const app: RunningApp = {
    sb,
    host,
    server: { url: run.page.url() } as unknown as DubdeskServer,
    home,
    close,
  };
  const view: Viewing = {
    browser: null as never,
    context: run.electron.context(),
    page: run.page,
    troubles: run.troubles,
    close: async () => {},
  };
  return { app, view, run };
}

export const logsOf = (home: string) => join(home, 'logs', 'dubdesk.log');
