import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { isTrustedSender, RENDERER_URL } from './trust';

// One window per user session: a second launch focuses the first.
if (!app.requestSingleInstanceLock()) app.quit();

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1100,
    height: 720,
    title: 'Dubdesk',
    show: false,
    webPreferences: {
      preload: join(__dirname, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  void win.loadURL(RENDERER_URL);
  return win;
}

app.on('second-instance', () => {
  const [win] = BrowserWindow.getAllWindows();
  if (win) {
    if (win.isMinimized()) win.restore();
    win.focus();
  }
});

void app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, done) => done(false));
  ipcMain.handle('dubdesk:app-info', (event) => {
    if (!isTrustedSender(event.senderFrame?.url)) throw new Error('untrusted sender');
    return { name: app.getName(), version: app.getVersion(), shell: 'electron' };
  });
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
