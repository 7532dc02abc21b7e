import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export interface FolderEnv {
  env?: NodeJS.ProcessEnv;
  home?: string;
  platform?: NodeJS.Platform;
}

/** `XDG_DOWNLOAD_DIR="$HOME/Téléchargements"` in xdg-user-dirs' file, `$HOME` expanded; null when absent. */
function fromUserDirs(text: string, home: string): string | null {
  const line = /^\s*XDG_DOWNLOAD_DIR\s*=\s*"([^"]*)"\s*$/m.exec(text)?.[1];
  if (!line) return null;
  const path = line.replace(/^\$HOME(?=\/|$)/, home);
  return isAbsolute(path) && path !== home ? path : null;
}

/**
 * The user's Downloads folder by the OS convention: on Linux the XDG user directory (the variable, else
 * `~/.config/user-dirs.dirs`, which desktops translate: "Téléchargements"), elsewhere `~/Downloads`.
 */
export function downloadsFolder(o: FolderEnv = {}): string {
  const env = o.env ?? process.env;
  const home = o.home ?? homedir();
  if ((o.platform ?? process.platform) === 'linux') {
    const set = env.XDG_DOWNLOAD_DIR?.trim();
    if (set && isAbsolute(set)) return set;
    const config = env.XDG_CONFIG_HOME?.trim() || join(home, '.config');
    try {
      const found = fromUserDirs(readFileSync(join(config, 'user-dirs.dirs'), 'utf8'), home);
      if (found) return found;
    } catch {
      /* no user-dirs file: the plain convention below */
    }
  }
  return join(home, 'Downloads');
}
