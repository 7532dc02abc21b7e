import { join } from 'node:path';
import { app, type BrowserWindow, dialog, screen } from 'electron';
import { askOnClose } from './close-guard';
import { working } from './queue-status';
import type { ShellState } from './shell-state';
import { createMainWindow } from './window';
import { boundsOf, loadWindowState, saveWindowState } from './window-state';

export interface MainWindowOptions {
  home: string;
  /** Where preload.cjs is (dist/electron). */
  distDir: string;
  icons: string;
  state: ShellState;
  /** Whether the tray icon can be seen (tray-host.ts); without it, "keep working" minimises. */
  trayShown: () => Promise<boolean>;
  /** Windows is shutting down or signing out (the window's `session-end`). */
  onSessionEnd: () => void;
}

/**
 * The one window: opened where it was last, shown again when asked, and closed the way the platform
 * expects. Closing it while work runs asks first (keep working in the tray, or minimised where there is no
 * tray to see; or quit); on macOS it only hides, and the app lives on in the dock.
 */
export class MainWindow {
  private win: BrowserWindow | null = null;

  constructor(private readonly opts: MainWindowOptions) {}

  /** The window, unless it is closed. */
  readonly alive = (): BrowserWindow | null => (this.win && !this.win.isDestroyed() ? this.win : null);

  readonly show = (): void => {
    const w = this.alive() ?? this.open();
    if (w.isMinimized()) w.restore();
    w.show();
    w.focus();
  };

  open(): BrowserWindow {
    const { home, state } = this.opts;
    const areas = [screen.getPrimaryDisplay(), ...screen.getAllDisplays()].map((d) => d.workArea);
    const w = createMainWindow({
      bounds: loadWindowState(home, areas),
      preload: join(this.opts.distDir, 'preload.cjs'),
      ...(process.platform === 'linux' ? { icon: join(this.opts.icons, 'icon.png') } : {}),
    });
    let asking = false;
    w.on('session-end', () => {
      saveWindowState(home, boundsOf(w));
      this.opts.onSessionEnd();
    });
    w.on('close', (event) => {
      saveWindowState(home, boundsOf(w));
      if (state.phase !== 'running' || process.platform === 'darwin') {
        // macOS: the app lives on in the dock, and so does its work; the window only hides.
        if (state.phase === 'running') {
          event.preventDefault();
          w.hide();
        }
        return;
      }
      const totals = state.totals;
      if (!totals || !working(totals)) return;
      event.preventDefault();
      if (asking) return;
      asking = true;
      void this.opts.trayShown().then(async (trayShown) => {
        const choice = await askOnClose(dialog, w, totals, home, trayShown);
        asking = false;
        if (choice === 'tray') {
          if (trayShown) w.hide();
          else w.minimize();
        } else if (choice === 'quit') app.quit();
      });
    });
    this.win = w;
    return w;
  }
}
