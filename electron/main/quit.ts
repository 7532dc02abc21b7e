import { app } from 'electron';
import type { DesktopParts } from './desktop-parts';
import type { EngineClient } from './engine-client';
import type { ShellState } from './shell-state';

/** Time the HTTP calls in flight get to finish when the app quits; then they are cut (and resume later). */
export const QUIT_GRACE_MS = 5000;

/**
 * "Quit after the current uploads": the engine holds (running steps finish, nothing new starts) and the
 * app quits once no upload runs; switched off, work goes on.
 */
export function quitAfterUploads(
  engine: EngineClient,
  state: ShellState,
  parts: () => DesktopParts,
): (on: boolean) => void {
  return (on) => {
    state.quittingAfterUploads = on;
    engine.hold(on);
    parts().tray.update({ quittingAfterUploads: on });
    if (on && state.totals && (state.totals.counts.uploading ?? 0) === 0) app.quit();
  };
}

/**
 * Quitting stops the engine gently first: the shell's parts let go (sleep, taskbar, tray), the steps in
 * flight get QUIT_GRACE_MS to finish, then the app quits for real.
 */
export function stopGentlyOnQuit(engine: EngineClient, state: ShellState, parts: DesktopParts): void {
  app.on('before-quit', (event) => {
    if (state.phase === 'stopped') return;
    event.preventDefault();
    if (state.phase === 'stopping') return;
    state.phase = 'stopping';
    parts.awake.release();
    parts.taskbar.clear();
    parts.tray.destroy();
    void engine.stop(QUIT_GRACE_MS).finally(() => {
      state.phase = 'stopped';
      app.quit();
    });
  });
}
