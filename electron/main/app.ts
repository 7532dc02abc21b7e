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
  Menu,
  nativeImage,
  Notification,
  powerMonitor,
  powerSaveBlocker,
  protocol,
  screen,
  session,
  shell,
  Tray,
  utilityProcess,
} from 'electron';
import type { QueueTotals } from '../../shared/contract/queue';
import type { Settings } from '../../shared/contract/settings';
import { appProtocolHandler } from './app-protocol';
import { askOnClose } from './close-guard';
import { startDesktopExtras } from './desktop-extras';
import { EngineClient, type EngineChild } from './engine-client';
import type { EngineInit } from './engine-protocol';
import { openAppLink, allowedPrefixes, serviceWebsite } from './external-links';
import { pickFiles, registerFaceIpc } from './face-ipc';
import { registerContractIpc } from './ipc';
import { MEDIA_SCHEME } from './media-url';
import { mediaProtocolHandler } from './media-protocol';
import { menuTemplate } from './menu';
import { BatchNotifier, type Notice } from './notifications';
import { AwakeWhileTransferring, wakeOnResume } from './power';
import { working } from './queue-status';
import { secureSession } from './session';
import { ShellEvents } from './shell-events';
import { FileBatcher, filesFromArgv } from './single-instance';
import { TaskbarProgress } from './taskbar';
import { QueueTray } from './tray';
import { APP_SCHEME, isTrustedSender, type SenderLike } from './trust';
import { createMainWindow, lockDown } from './window';
import { boundsOf, loadWindowState, saveWindowState } from './window-state';

/** Time the HTTP calls in flight get to finish when the app quits; then they are cut (and resume later). */
export const QUIT_GRACE_MS = 5000;

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

export interface StartOptions {
  /** Where main.cjs, preload.cjs, engine.cjs and icons/ are (dist/electron). */
  distDir: string;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  home?: string;
  /** Test knobs and session overrides for the engine. */
  engine?: Partial<Omit<EngineInit, 'home' | 'appVersion'>>;
  /** Starts the engine's process (tests run it in-process). */
  forkEngine?: (entry: string) => EngineChild;
  /** The command line (files named on it are added); `process.argv` by default. */
  argv?: readonly string[];
}

export interface DesktopApp {
  engine: EngineClient;
  window(): BrowserWindow | null;
  shellEvents: ShellEvents;
  home: string;
}

function engineInitFromEnv(env: NodeJS.ProcessEnv): Partial<EngineInit> {
  const service = {
    ...(env.DUBDESK_BASE_URL ? { baseUrl: env.DUBDESK_BASE_URL } : {}),
    ...(env.DUBDESK_LEGACY_URL ? { legacyUrl: env.DUBDESK_LEGACY_URL } : {}),
    ...(env.DUBDESK_API_KEY ? { apiKey: env.DUBDESK_API_KEY } : {}),
  };
  return {
    ...(Object.keys(service).length ? { service } : {}),
    ...(env.DUBDESK_KEY_STORE === 'file' ? { keyStore: 'file' as const } : {}),
  };
}

export async function startDubdesk(opts: StartOptions): Promise<DesktopApp | null> {
  // Files named at launch, or opened from the dock before the app is ready, wait for the page.
  const early: string[] = filesFromArgv(opts.argv ?? process.argv, {
    defaultApp: Boolean(process.defaultApp),
    cwd: process.cwd(),
  });
  let batcher: FileBatcher | null = null;
  app.on('open-file', (event, path) => {
    event.preventDefault();
    if (batcher) batcher.add([path]);
    else early.push(path);
  });

  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  const home = opts.home ?? process.env.DUBDESK_HOME ?? join(app.getPath('appData'), 'Dubdesk');
  app.setPath('userData', home);
  await app.whenReady();

  secureSession(session.defaultSession);
  app.on('web-contents-created', (_event, contents) => lockDown(contents));

  const init: EngineInit = {
    home,
    appVersion: app.getVersion(),
    keyStore: 'system',
    sandbox: 'builtin',
    ...engineInitFromEnv(process.env),
    ...opts.engine,
  };
  const fork =
    opts.forkEngine ??
    ((entry: string) =>
      utilityProcess.fork(entry, [], {
        serviceName: 'Dubdesk engine',
        stdio: 'inherit',
      }) as unknown as EngineChild);
  const engine = new EngineClient(() => fork(join(opts.distDir, 'engine.cjs')), init);
  try {
    await engine.start();
  } catch (e) {
    const err = e as { message?: string; remedy?: string };
    dialog.showErrorBox(
      'Dubdesk cannot open its queue',
      [err.message, err.remedy].filter(Boolean).join('\n\n'),
    );
    app.exit(1);
    return null;
  }
  engine.onFatal = (error) => {
    dialog.showErrorBox('Dubdesk’s engine stopped', error.message);
    app.exit(1);
  };
  const api = engine.api;

  protocol.handle(APP_SCHEME, appProtocolHandler(opts.rendererDir));
  protocol.handle(MEDIA_SCHEME, mediaProtocolHandler(api));

  let win: BrowserWindow | null = null;
  const alive = () => (win && !win.isDestroyed() ? win : null);
  const trusted = (event: SenderLike) =>
    isTrustedSender(event, () => {
      const w = alive();
      return w ? [w.webContents] : [];
    });
  const shellEvents = new ShellEvents(() => alive()?.webContents ?? null);
  registerContractIpc(ipcMain, api, trusted);
  registerFaceIpc(ipcMain, { api, dialog, shell, window: alive }, trusted);
  shellEvents.register(ipcMain, trusted);
  const extras = startDesktopExtras({ app, ipcMain, dialog, clipboard, engine, trusted, window: alive });

  const show = () => {
    const w = alive() ?? openWindow();
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
  };
  const addFiles = (paths: string[]) => {
    if (!paths.length) return;
    shellEvents.send({ type: 'open-files', paths });
    show();
  };
  batcher = new FileBatcher(addFiles);

  // State the shell follows: totals for the tray, taskbar, power and close prompt; settings for links.
  let totals: QueueTotals | null = null;
  let settings: Settings | null = null;
  let quittingAfterUploads = false;
  let phase: 'running' | 'stopping' | 'stopped' = 'running';
  const icons = join(opts.distDir, 'icons');

  const notices = new Set<Notification>();
  const notifier = new BatchNotifier((n: Notice) => {
    if (!Notification.isSupported()) return;
    const note = new Notification({ title: n.title, body: n.body });
    notices.add(note);
    note.on('click', () => {
      notices.delete(note);
      show();
      if (n.jobId !== null) shellEvents.send({ type: 'show-job', id: n.jobId });
    });
    note.on('close', () => notices.delete(note));
    note.show();
  });
  const taskbar = new TaskbarProgress(alive, process.platform === 'win32' ? null : app);
  const awake = new AwakeWhileTransferring(powerSaveBlocker);
  wakeOnResume(powerMonitor, () => engine.wake());

  const quitAfterUploads = (on: boolean) => {
    quittingAfterUploads = on;
    engine.hold(on);
    tray?.update({ quittingAfterUploads: on });
    if (on && totals && (totals.counts.uploading ?? 0) === 0) app.quit();
  };
  const trayImage = nativeImage.createFromPath(
    join(icons, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
  );
  const tray: QueueTray | null = new QueueTray(
    new Tray(trayImage),
    {
      show,
      pauseAll: () => void api.pauseQueue().catch(() => {}),
      resumeAll: () => void api.resumeQueue().catch(() => {}),
      quitAfterUploads: () => quitAfterUploads(true),
      cancelQuitAfterUploads: () => quitAfterUploads(false),
      quit: () => app.quit(),
    },
    (template) => Menu.buildFromTemplate(template),
  );

  const setMenu = () =>
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate(process.platform, app.isPackaged, {
          addFiles: () => void pickFiles({ dialog, window: alive }).then(addFiles),
          find: () => {
            show();
            shellEvents.send({ type: 'command', command: 'find' });
          },
          preferences: () => {
            show();
            shellEvents.send({ type: 'command', command: 'preferences' });
          },
          openDataFolder: () => void shell.openPath(home),
          openLogs: () => void shell.openPath(join(home, 'logs')),
          ...extras.menu,
          serviceWebsite: serviceWebsite(settings)
            ? () => openAppLink(serviceWebsite(settings) ?? '', allowedPrefixes(settings), shell.openExternal)
            : null,
        }),
      ),
    );

  const onTotals = (t: QueueTotals) => {
    totals = t;
    tray?.update({ totals: t });
    taskbar.update(t);
    awake.update(t);
    notifier.totals(t);
    if (quittingAfterUploads && (t.counts.uploading ?? 0) === 0) app.quit();
  };
  const onSettings = (s: Settings) => {
    settings = s;
    notifier.enabled = s.notifyWhenDone;
    setMenu();
  };
  api.subscribe((event) => {
    if (event.type === 'totals') onTotals(event.totals);
    else if (event.type === 'settings') onSettings(event.settings);
    else if (event.type === 'job') notifier.job(event.job, Boolean(alive()?.isFocused()));
  });
  onSettings(await api.getSettings());
  onTotals(await api.totals());

  function openWindow(): BrowserWindow {
    const areas = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea);
    const w = createMainWindow({
      bounds: loadWindowState(home, areas),
      preload: join(opts.distDir, 'preload.cjs'),
      ...(process.platform === 'linux' ? { icon: join(icons, 'icon.png') } : {}),
    });
    let asking = false;
    w.on('close', (event) => {
      saveWindowState(home, boundsOf(w));
      if (phase !== 'running' || process.platform === 'darwin') {
        // macOS: the app lives on in the dock, and so does its work; the window only hides.
        if (phase === 'running') {
          event.preventDefault();
          w.hide();
        }
        return;
      }
      if (!totals || !working(totals)) return;
      event.preventDefault();
      if (asking) return;
      asking = true;
      void askOnClose(dialog, w, totals, home).then((choice) => {
        asking = false;
        if (choice === 'tray') w.hide();
        else if (choice === 'quit') app.quit();
      });
    });
    win = w;
    return w;
  }
  openWindow();
  setMenu();

  app.on('second-instance', (_event, argv, workingDirectory) => {
    show();
    addFiles(filesFromArgv(argv, { defaultApp: Boolean(process.defaultApp), cwd: workingDirectory }));
  });
  if (early.length) batcher.add(early.splice(0));
  app.on('activate', show);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (phase === 'stopped') return;
    event.preventDefault();
    if (phase === 'stopping') return;
    phase = 'stopping';
    awake.release();
    taskbar.clear();
    tray?.destroy();
    void engine.stop(QUIT_GRACE_MS).finally(() => {
      phase = 'stopped';
      app.quit();
    });
  });

  return { engine, window: alive, shellEvents, home };
}
