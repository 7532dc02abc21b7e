import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The desktop app's data folder (Electron's userData for "Dubdesk"), shared with the CLI by default. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Dubdesk');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Dubdesk');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Dubdesk');
}

/** Owner-only where the OS has modes: the folder holds pre-signed links, logs and maybe the API key. */
function chmodQuietly(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    /* not ours to change (a shared folder the user pointed us at), or no modes on this file system */
  }
}

/** Creates the data folder (and the folders named) readable by the user only. */
export function prepareHome(home: string, ...subdirs: string[]): void {
  for (const dir of [home, ...subdirs.map((s) => join(home, s))]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodQuietly(dir, 0o700);
  }
}

/** A file of the data folder, created (if missing) and kept readable by the user only. */
export function privateFile(path: string): string {
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  chmodQuietly(path, 0o600);
  return path;
}
