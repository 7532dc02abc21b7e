/**
 * One Dubdesk per user: a second launch hands its files to the first window. Files also arrive from the
 * dock ("open-file" on macOS) and from "Open with Dubdesk" (arguments on Windows and Linux).
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A `file:` URL as its path (the Linux desktop entry passes files as `%U`); anything else as it is. */
function asPath(arg: string): string | null {
  if (!/^file:/i.test(arg)) return arg;
  try {
    return fileURLToPath(arg);
  } catch {
    return null;
  }
}

/**
 * The files and folders named on a command line, as paths or `file:` URLs. `argv[0]` is the executable;
 * unpackaged (`electron .`), `argv[1]` is the app's folder. Switches and names that are not there are left out.
 */
export function filesFromArgv(argv: readonly string[], opts: { defaultApp: boolean; cwd: string }): string[] {
  const args = argv.slice(opts.defaultApp ? 2 : 1);
  const out: string[] = [];
  for (const arg of args) {
    if (!arg || arg.startsWith('-')) continue;
    const named = asPath(arg);
    if (!named) continue;
    const path = isAbsolute(named) ? named : resolve(opts.cwd, named);
    try {
      const s = statSync(path);
      if (s.isFile() || s.isDirectory()) out.push(path);
    } catch {
      /* not a path: a URL scheme or a leftover switch value */
    }
  }
  return [...new Set(out)];
}

/** Files that arrive one event at a time (a drop of 20 files on the dock) are handed over together. */
export class FileBatcher {
  private paths: string[] = [];
  private scheduled = false;

  constructor(private readonly deliver: (paths: string[]) => void) {}

  add(paths: readonly string[]): void {
    this.paths.push(...paths);
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      const batch = [...new Set(this.paths.splice(0))];
      if (batch.length) this.deliver(batch);
    }, 50);
  }
}
