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
 * Stops the engine gently, once: the shell's parts let go (sleep, taskbar, tray) and the steps in flight get
 * `graceMs` to finish. Null when it is stopping or stopped already.
 */
function stopEngine(engine: EngineClient, state: ShellState, parts: DesktopParts, graceMs: number) {
  if (state.phase !== 'running') return null;
  state.phase = 'stopping';
  parts.awake.release();
  parts.taskbar.clear();
  parts.tray.destroy();
  return engine.stop(graceMs).finally(() => {
    state.phase = 'stopped';
  });
}

/** Quitting stops the engine gently first (QUIT_GRACE_MS for the steps in flight), then quits for real. */
export function stopGentlyOnQuit(engine: EngineClient, state: ShellState, parts: DesktopParts): void {
  app.on('before-quit', (event) => {
    if (state.phase === 'stopped') return;
    event.preventDefault();
    void stopEngine(engine, state, parts, QUIT_GRACE_MS)?.then(() => app.quit());
  });
}

/** What Windows allows an app between "the session ends" and ending it: the engine gets less than that. */
export const SESSION_END_GRACE_MS = 1500;

/**
 * Windows shutting down or signing out: `before-quit` is not emitted, the window gets `session-end`, and the
 * process is ended soon after. The engine stops with a short grace; the queue resumes next time anyway.
 */
export function stopOnSessionEnd(engine: EngineClient, state: ShellState, parts: DesktopParts): () => void {
  return () => void stopEngine(engine, state, parts, SESSION_END_GRACE_MS);
}
