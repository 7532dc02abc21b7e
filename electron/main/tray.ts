/** The tray icon: the queue's state in its tooltip, pause/resume all, and quit after the current uploads. */
import type { MenuItemConstructorOptions } from 'electron';
import type { QueueTotals } from '../../shared/contract/queue';
import { statusLine } from './queue-status';

export interface TrayActions {
  show(): void;
  pauseAll(): void;
  resumeAll(): void;
  quitAfterUploads(): void;
  cancelQuitAfterUploads(): void;
  quit(): void;
}

export interface TrayView {
  totals: QueueTotals | null;
  /** Set once the user asked to quit after the uploads in progress. */
  quittingAfterUploads: boolean;
}

export function trayTooltip(view: TrayView): string {
  if (view.quittingAfterUploads) {
    const n = view.totals?.counts.uploading ?? 0;
    return `Dubdesk — quitting after ${n} upload${n === 1 ? '' : 's'}`;
  }
  return `Dubdesk — ${view.totals ? statusLine(view.totals) : 'starting'}`;
}

export function trayMenu(view: TrayView, actions: TrayActions): MenuItemConstructorOptions[] {
  const t = view.totals;
  const uploading = t?.counts.uploading ?? 0;
  const pausedByUser = t?.paused?.reason === 'user';
  return [
    { label: trayTooltip(view).replace(/^Dubdesk — /, ''), enabled: false },
    { type: 'separator' },
    { label: 'Show Dubdesk', click: () => actions.show() },
    pausedByUser
      ? { label: 'Resume All', click: () => actions.resumeAll() }
      : { label: 'Pause All', enabled: (t?.left ?? 0) > 0, click: () => actions.pauseAll() },
    { type: 'separator' },
    view.quittingAfterUploads
      ? { label: 'Don’t Quit After Uploads', click: () => actions.cancelQuitAfterUploads() }
      : {
          label: uploading ? `Quit After Current Uploads (${uploading})` : 'Quit After Current Uploads',
          enabled: uploading > 0,
          click: () => actions.quitAfterUploads(),
        },
    { label: 'Quit Dubdesk', click: () => actions.quit() },
  ];
}

/** What an Electron Tray offers, as far as this uses it. */
export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export class QueueTray {
  private view: TrayView = { totals: null, quittingAfterUploads: false };

  constructor(
    private readonly tray: TrayLike,
    private readonly actions: TrayActions,
    private readonly buildMenu: (template: MenuItemConstructorOptions[]) => unknown,
  ) {
    tray.on('click', () => actions.show());
    this.render();
  }

  update(patch: Partial<TrayView>): void {
    this.view = { ...this.view, ...patch };
    this.render();
  }

  private render(): void {
    this.tray.setToolTip(trayTooltip(this.view));
    this.tray.setContextMenu(this.buildMenu(trayMenu(this.view, this.actions)));
  }

  destroy(): void {
    this.tray.destroy();
  }
}
