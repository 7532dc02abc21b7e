import { join } from 'node:path';
import {
  app,
  dialog,
  Menu,
  nativeImage,
  Notification,
  powerSaveBlocker,
  shell,
  Tray,
  type BrowserWindow,
} from 'electron';
import type { DubdeskApi } from '../../shared/contract/methods';
import type { QueueTotals } from '../../shared/contract/queue';
import type { Settings } from '../../shared/contract/settings';
import { allowedPrefixes, openAppLink, serviceWebsite } from './external-links';
import { pickFiles } from './face-ipc';
import { menuTemplate } from './menu';
import { BatchNotifier, type Notice } from './notifications';
import { AwakeWhileTransferring } from './power';
import type { ShellEvents } from './shell-events';
import type { ShellState } from './shell-state';
import { TaskbarProgress } from './taskbar';
import { QueueTray } from './tray';

/** The desktop's own parts that follow the queue: notifications, the taskbar, sleep, the tray, the menu. */
export interface DesktopParts {
  notifier: BatchNotifier;
  taskbar: TaskbarProgress;
  awake: AwakeWhileTransferring;
  tray: QueueTray;
  setMenu(): void;
}

export interface DesktopPartsOptions {
  api: DubdeskApi;
  home: string;
  icons: string;
  state: ShellState;
  shellEvents: ShellEvents;
  alive(): BrowserWindow | null;
  show(): void;
  addFiles(paths: string[]): void;
  /** "Quit after the current uploads", switched on or off. */
  quitAfterUploads(on: boolean): void;
}

/** A notification per finished batch (or failure); a click shows the window, and the job when there is one. */
function batchNotifier(show: () => void, shellEvents: ShellEvents): BatchNotifier {
  const notices = new Set<Notification>();
  return new BatchNotifier((n: Notice) => {
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
}

function queueTray(opts: DesktopPartsOptions): QueueTray {
  const { api } = opts;
  const image = nativeImage.createFromPath(
    join(opts.icons, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
  );
  return new QueueTray(
    new Tray(image),
    {
      show: opts.show,
      pauseAll: () => void api.pauseQueue().catch(() => {}),
      resumeAll: () => void api.resumeQueue().catch(() => {}),
      quitAfterUploads: () => opts.quitAfterUploads(true),
      cancelQuitAfterUploads: () => opts.quitAfterUploads(false),
      quit: () => app.quit(),
    },
    (template) => Menu.buildFromTemplate(template),
  );
}

/** The application menu; built again when the settings change (the service's website link). */
function menuSetter(opts: DesktopPartsOptions): () => void {
  const { show, shellEvents, home, state } = opts;
  return () =>
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate(process.platform, app.isPackaged, {
          addFiles: () => void pickFiles({ dialog, window: opts.alive }).then(opts.addFiles),
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
          serviceWebsite: serviceWebsite(state.settings)
            ? () =>
                openAppLink(
                  serviceWebsite(state.settings) ?? '',
                  allowedPrefixes(state.settings),
                  shell.openExternal,
                )
            : null,
        }),
      ),
    );
}

export function desktopParts(opts: DesktopPartsOptions): DesktopParts {
  return {
    notifier: batchNotifier(opts.show, opts.shellEvents),
    taskbar: new TaskbarProgress(opts.alive, process.platform === 'win32' ? null : app),
    awake: new AwakeWhileTransferring(powerSaveBlocker),
    tray: queueTray(opts),
    setMenu: menuSetter(opts),
  };
}

/**
 * The parts follow the engine's totals and settings from now on, starting with what they are now;
 * with "quit after the current uploads" on, the app quits once no upload runs.
 */
export async function followEngine(
  api: DubdeskApi,
  state: ShellState,
  parts: DesktopParts,
  alive: () => BrowserWindow | null,
): Promise<void> {
  const onTotals = (t: QueueTotals) => {
    state.totals = t;
    parts.tray.update({ totals: t });
    parts.taskbar.update(t);
    parts.awake.update(t);
    parts.notifier.totals(t);
    if (state.quittingAfterUploads && (t.counts.uploading ?? 0) === 0) app.quit();
  };
  const onSettings = (s: Settings) => {
    state.settings = s;
    parts.notifier.enabled = s.notifyWhenDone;
    parts.setMenu();
  };
  api.subscribe((event) => {
    if (event.type === 'totals') onTotals(event.totals);
    else if (event.type === 'settings') onSettings(event.settings);
    else if (event.type === 'job') parts.notifier.job(event.job, Boolean(alive()?.isFocused()));
  });
  onSettings(await api.getSettings());
  onTotals(await api.totals());
}
