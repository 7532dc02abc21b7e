/**
 * The desktop app, put together: the engine in its utility process, the window with the renderer, the
 * contract over IPC, and the desktop's own parts (menu, tray, notifications, taskbar, power, files).
 */
import { join } from 'node:path';
import {
  app,
  type BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  powerMonitor,
  protocol,
  session,
  shell,
} from 'electron';
import type { DubdeskApi } from '../../shared/contract/methods';
import { appProtocolHandler } from './app-protocol';
import { startDesktopExtras } from './desktop-extras';
import { desktopParts, followEngine, type DesktopParts } from './desktop-parts';
import type { EngineClient } from './engine-client';
import { startEngine, type EngineStartOptions } from './engine-start';
import { registerFaceIpc } from './face-ipc';
import { registerContractIpc } from './ipc';
import { settleIdentity } from './launch-env';
import { LaunchFiles } from './launch-files';
import { MainWindow } from './main-window';
import { mediaProtocolHandler } from './media-protocol';
import { MEDIA_SCHEME } from './media-url';
import { wakeOnResume } from './power';
import { quitAfterUploads, stopGentlyOnQuit, stopOnSessionEnd } from './quit';
import { secureSession } from './session';
import { ShellEvents } from './shell-events';
import { newShellState } from './shell-state';
import { APP_SCHEME, isTrustedSender, type SenderLike } from './trust';
import { trayHostPresent } from './tray-host';
import { lockDown } from './window';

export { QUIT_GRACE_MS } from './quit';

/** Both protocols, privileged: they must be declared before the app is ready. */
export function registerSchemes(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // Module scripts are fetched in CORS mode: the scheme must take part in CORS.
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true },
    },
    {
      scheme: MEDIA_SCHEME,
      privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true, corsEnabled: true },
    },
  ]);
}

export interface StartOptions extends EngineStartOptions {
  /** Where main.cjs, preload.cjs, engine.cjs and icons/ are (dist/electron). */
  distDir: string;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  home?: string;
  /** The command line (files named on it are added); `process.argv` by default. */
  argv?: readonly string[];
  /** Whether a tray icon can be seen; asked of the session bus on Linux by default (tray-host.ts). */
  trayShown?: () => Promise<boolean>;
}

export interface DesktopApp {
  engine: EngineClient;
  window(): BrowserWindow | null;
  shellEvents: ShellEvents;
  home: string;
}

/** Only the app's own page, in its one window, may call the contract and the shell's channels. */
function registerIpc(
  api: DubdeskApi,
  alive: () => BrowserWindow | null,
): { shellEvents: ShellEvents; trusted: (event: SenderLike) => boolean } {
  const trusted = (event: SenderLike) =>
    isTrustedSender(event, () => {
      const w = alive();
      return w ? [w.webContents] : [];
    });
  const shellEvents = new ShellEvents(() => alive()?.webContents ?? null);
  registerContractIpc(ipcMain, api, trusted);
  registerFaceIpc(ipcMain, { api, dialog, shell, window: alive }, trusted);
  shellEvents.register(ipcMain, trusted);
  return { shellEvents, trusted };
}

/** The app's own scheme serves the renderer; the media scheme, a job's sources and results. */
function registerProtocols(rendererDir: string, api: DubdeskApi): void {
  protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir));
  protocol.handle(MEDIA_SCHEME, mediaProtocolHandler(api));
}

/** The dock and the last window closed; files from launches go to the page from now on. */
function handleAppEvents(win: MainWindow, launch: LaunchFiles, addFiles: (paths: string[]) => void): void {
  launch.handOver(addFiles, win.show);
  app.on('activate', win.show);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}

/**
 * Starts the desktop app, step by step; null when it does not run (another instance has it, or the
 * engine could not open its queue).
 */
export async function startDubdesk(opts: StartOptions): Promise<DesktopApp | null> {
  const home = settleIdentity(app, opts.home, process.env, process.platform);
  const launch = new LaunchFiles(opts.argv ?? process.argv);
  // A second launch hands its files over with its lock request, as its own command line named them.
  if (!app.requestSingleInstanceLock({ files: launch.named })) {
    app.quit();
    return null;
  }
  launch.listenForSecondLaunches();
  await app.whenReady();
  secureSession(session.defaultSession);
  app.on('web-contents-created', (_event, contents) => lockDown(contents));

  const engine = await startEngine(
    { ...opts, resolveProxy: opts.resolveProxy ?? ((url) => session.defaultSession.resolveProxy(url)) },
    home,
  );
  if (!engine) return null;
  const api = engine.api;
  registerProtocols(opts.rendererDir, api);

  const state = newShellState();
  const icons = join(opts.distDir, 'icons');
  let trayAnswer: Promise<boolean> | null = null;
  const trayShown = () => (trayAnswer ??= (opts.trayShown ?? (() => trayHostPresent(process.platform)))());
  let endSession = () => {};
  const onSessionEnd = () => endSession();
  const win = new MainWindow({ home, distDir: opts.distDir, icons, state, trayShown, onSessionEnd });
  const { shellEvents, trusted } = registerIpc(api, win.alive);
  const extras = startDesktopExtras({ app, ipcMain, dialog, clipboard, engine, trusted, window: win.alive });
  const addFiles = (paths: string[]) => {
    if (!paths.length) return;
    shellEvents.send({ type: 'open-files', paths });
    win.show();
  };

  let parts: DesktopParts | null = null;
  const partsNow = () => parts as DesktopParts;
  parts = desktopParts({
    api,
    home,
    icons,
    state,
    shellEvents,
    alive: win.alive,
    show: win.show,
    addFiles,
    quitAfterUploads: quitAfterUploads(engine, state, partsNow),
    menuExtras: extras.menu,
  });
  wakeOnResume(powerMonitor, () => engine.wake());
  await followEngine(api, state, parts, win.alive);

  win.open();
  parts.setMenu();
  handleAppEvents(win, launch, addFiles);
  stopGentlyOnQuit(engine, state, parts);
  endSession = stopOnSessionEnd(engine, state, parts);
  return { engine, window: win.alive, shellEvents, home };
}
