/** The application menu: the usual roles, plus Add Files (Ctrl/Cmd+O), Find (Ctrl/Cmd+F) and Preferences. */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  addFiles(): void;
  find(): void;
  preferences(): void;
  openDataFolder(): void;
  openLogs(): void;
  /** The service's website, when one is configured over https. */
  serviceWebsite: (() => void) | null;
  /** Checks now and says what it found (updates are off in unpackaged runs, and it says so). */
  checkForUpdates?: () => void;
  /** The doctor's checks and the log's tail, keys redacted, onto the clipboard. */
  copyDiagnostics?: () => void;
}

export function menuTemplate(
  platform: NodeJS.Platform,
  packaged: boolean,
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const preferences: MenuItemConstructorOptions = {
    label: mac ? 'Settings…' : 'Preferences…',
    accelerator: 'CmdOrCtrl+,',
    click: () => actions.preferences(),
  };
  const updates: MenuItemConstructorOptions[] = actions.checkForUpdates
    ? [{ label: 'Check for Updates…', click: actions.checkForUpdates }]
    : [];
  const template: MenuItemConstructorOptions[] = [];
  if (mac)
    template.push({
      label: 'Dubdesk',
      submenu: [
        { role: 'about' },
        ...updates,
        { type: 'separator' },
        preferences,
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  template.push({
    label: '&File',
    submenu: [
      { label: 'Add Files…', accelerator: 'CmdOrCtrl+O', click: () => actions.addFiles() },
      { type: 'separator' },
      ...(mac ? [] : [preferences, { type: 'separator' as const }]),
      mac ? { role: 'close' } : { role: 'quit', accelerator: 'Ctrl+Q' },
    ],
  });
  template.push({
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
      { type: 'separator' },
      { label: 'Find…', accelerator: 'CmdOrCtrl+F', click: () => actions.find() },
    ],
  });
  template.push({
    label: '&View',
    submenu: [
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
      ...(packaged
        ? []
        : [{ type: 'separator' as const }, { role: 'reload' as const }, { role: 'toggleDevTools' as const }]),
    ],
  });
  template.push({ role: 'windowMenu' });
  template.push({
    role: 'help',
    submenu: [
      ...(actions.serviceWebsite
        ? [{ label: 'Dubbing Service Website', click: actions.serviceWebsite }]
        : []),
      { label: 'Open Data Folder', click: () => actions.openDataFolder() },
      { label: 'Open Logs Folder', click: () => actions.openLogs() },
      ...(actions.copyDiagnostics ? [{ label: 'Copy Diagnostics', click: actions.copyDiagnostics }] : []),
      ...(mac ? [] : updates.length ? [{ type: 'separator' as const }, ...updates] : []),
    ],
  });
  return template;
}
