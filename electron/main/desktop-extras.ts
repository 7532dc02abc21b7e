/**
 * The desktop's help and upkeep: updates (checked at start, every 6 hours, and on request from the menu
 * or Settings) and Help > Copy Diagnostics. Wired into the app with one call.
 */
import type { App, BrowserWindow, Clipboard, Dialog, IpcMain, IpcMainInvokeEvent } from 'electron';
import { autoUpdater } from 'electron-updater';
import { FACE } from './channels';
import { settle } from './settle';
import { copyDiagnostics, type DiagnosticsSource } from './copy-diagnostics';
import { UNTRUSTED, type Trust } from './ipc';
import type { MenuActions } from './menu';
import { updateLimits } from './update-limits';
import { updateMessage, Updates, type Updater } from './updates';

export interface ExtrasDeps {
  app: Pick<App, 'isPackaged' | 'getVersion'>;
  ipcMain: Pick<IpcMain, 'handle'>;
  dialog: Pick<Dialog, 'showMessageBox'>;
  clipboard: Pick<Clipboard, 'writeText'>;
  engine: DiagnosticsSource;
  trusted: Trust;
  window: () => BrowserWindow | null;
  /** electron-updater's updater for this system; only asked for in a packaged app. */
  updater?: () => Updater;
  /** Why this copy cannot install updates (update-limits.ts by default). */
  updateLimits?: () => Promise<string | null>;
}

export interface DesktopExtras {
  updates: Updates;
  menu: Required<Pick<MenuActions, 'checkForUpdates' | 'copyDiagnostics'>>;
}

export function startDesktopExtras(deps: ExtrasDeps): DesktopExtras {
  const packaged = deps.app.isPackaged;
  const updater = packaged ? (deps.updater ?? (() => autoUpdater))() : null;
  const updates = new Updates(updater, {
    packaged,
    current: deps.app.getVersion(),
    unavailable: deps.updateLimits ?? (() => updateLimits(process.platform, process.execPath)),
  });
  updates.start();
  deps.ipcMain.handle(FACE.checkForUpdates, async (event: IpcMainInvokeEvent) =>
    deps.trusted(event) ? settle(() => updates.check()) : UNTRUSTED,
  );
  const say = (o: { message: string; detail: string }) => {
    const w = deps.window();
    const options = { type: 'info' as const, buttons: ['OK'], ...o };
    return w ? deps.dialog.showMessageBox(w, options) : deps.dialog.showMessageBox(options);
  };
  return {
    updates,
    menu: {
      checkForUpdates: () => void updates.check().then((s) => say(updateMessage(s))),
      copyDiagnostics: () => void copyDiagnostics(deps.engine, deps.clipboard, deps.dialog, deps.window),
    },
  };
}
