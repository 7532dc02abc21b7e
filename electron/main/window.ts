/** The one window, with the security checklist: isolated, sandboxed, no Node, going nowhere but the app. */
import { BrowserWindow, nativeTheme, type WebContents, type WebPreferences } from 'electron';
import type { WindowBounds } from './window-state';
import { RENDERER_URL } from './trust';

export function securePreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    // Files dropped on the window are for the page's drop zone, never a navigation to them.
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

/** Every web contents of the app: no navigation, no redirect, no new window, no <webview>. */
export function lockDown(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function createMainWindow(opts: {
  bounds: WindowBounds;
  preload: string;
  icon?: string;
}): BrowserWindow {
  const { bounds } = opts;
  const win = new BrowserWindow({
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    width: bounds.width,
    height: bounds.height,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Dubdesk',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1f1f1f' : '#ffffff',
    ...(opts.icon ? { icon: opts.icon } : {}),
    webPreferences: securePreferences(opts.preload),
  });
  lockDown(win.webContents);
  win.once('ready-to-show', () => {
    if (bounds.maximized) win.maximize();
    win.show();
  });
  void win.loadURL(RENDERER_URL);
  return win;
}
