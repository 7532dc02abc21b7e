/**
 * What the app sets about itself before anything else: its data folder (absolute, whatever DUBDESK_HOME
 * says), its Windows identity, and the folders its tools are found in when started from Finder.
 */
import { join, resolve } from 'node:path';
import type { App } from 'electron';

/** electron-builder's appId: the Start-menu shortcut's AppUserModelID, which toasts and pinned icons use. */
export const APP_USER_MODEL_ID = 'app.dubdesk.desktop';

/** The data folder: the one asked for, DUBDESK_HOME (made absolute), or `Dubdesk` in the app-data folder. */
export function dataFolder(asked: string | undefined, env: NodeJS.ProcessEnv, appData: string): string {
  const chosen = asked ?? (env.DUBDESK_HOME || undefined);
  return chosen ? resolve(chosen) : join(appData, 'Dubdesk');
}

/**
 * Where Homebrew puts ffmpeg and ffprobe on Apple Silicon and on Intel Macs. An app started from Finder or
 * the Dock gets only `/usr/bin:/bin:/usr/sbin:/sbin`, not the shell's PATH.
 */
export const MAC_TOOL_FOLDERS = ['/opt/homebrew/bin', '/usr/local/bin'];

/** PATH with the macOS tool folders added at its end (where missing); other systems' PATH as it is. */
export function withToolFolders(path: string | undefined, platform: NodeJS.Platform): string {
  if (platform !== 'darwin') return path ?? '';
  const have = (path ?? '').split(':').filter(Boolean);
  return [...have, ...MAC_TOOL_FOLDERS.filter((f) => !have.includes(f))].join(':');
}

/**
 * Before the lock: the data folder is the app's user-data folder (the lock is scoped to it, so each data
 * folder has its own Dubdesk), Chromium's own files go in a folder of it, on Windows the process takes the
 * identity of its Start-menu shortcut, and on macOS the tool folders join PATH (the engine inherits it).
 * Returns the data folder.
 */
export function settleIdentity(
  app: Pick<App, 'getPath' | 'setPath' | 'setAppUserModelId'>,
  asked: string | undefined,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): string {
  const home = dataFolder(asked, env, app.getPath('appData'));
  if (platform === 'win32') app.setAppUserModelId(APP_USER_MODEL_ID);
  app.setPath('userData', home);
  app.setPath('sessionData', join(home, 'chromium'));
  env.PATH = withToolFolders(env.PATH, platform);
  return home;
}
