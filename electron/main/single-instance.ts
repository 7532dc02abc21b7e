/**
 * One Dubdesk per data folder: a second launch hands its files to the first window. Files also arrive from
 * the dock ("open-file" on macOS) and from "Open with Dubdesk" (arguments on Windows and Linux).
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Where a command line was started, and how to read it. */
export interface LaunchContext {
  /** `electron .` (`process.defaultApp`): the first name after the switches is the app's folder. */
  defaultApp: boolean;
  cwd: string;
  /** The app's own folder (`app.getAppPath()`): never a file to open, wherever it appears. */
  appPath?: string;
}

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
 * The files and folders named on a command line, as paths or `file:` URLs. `argv[0]` is the executable.
 * Switches are left out wherever they stand: Chromium's and Node's (`--no-sandbox`, `--inspect=0`,
 * `--remote-debugging-port=0`, which Playwright puts before the app's folder), and those Chromium appends to
 * a second launch (`--original-process-start-time=…`). Unpackaged, the first other name is the app's folder.
 * The app's folder itself, and names that are not there, are left out too.
 */
export function filesFromArgv(argv: readonly string[], where: LaunchContext): string[] {
  const names = argv.slice(1).filter((arg) => arg !== '' && !arg.startsWith('-'));
  if (where.defaultApp) names.shift();
  const appPath = where.appPath ? resolve(where.appPath) : null;
  const out: string[] = [];
  for (const arg of names) {
    const named = asPath(arg);
    if (!named) continue;
    const path = isAbsolute(named) ? named : resolve(where.cwd, named);
    if (path === appPath) continue;
    try {
      const s = statSync(path);
      if (s.isFile() || s.isDirectory()) out.push(path);
    } catch {
      /* not a path: a URL scheme or a leftover switch value */
    }
  }
  return [...new Set(out)];
}

/** What a launch hands to the running instance along with its lock request (`additionalData`). */
const HandedOver = z.object({ files: z.array(z.string().min(1)).max(10_000) });
export type HandedOver = z.infer<typeof HandedOver>;

/**
 * The files of a second launch: those it worked out from its own command line and handed over, each still
 * there; from an older version that handed nothing, read from its command line (Chromium may have reordered
 * it and appended switches).
 */
export function filesOfSecondLaunch(
  argv: readonly string[],
  workingDirectory: string,
  additionalData: unknown,
  where: Omit<LaunchContext, 'cwd'>,
): string[] {
  const handed = HandedOver.safeParse(additionalData);
  if (!handed.success) return filesFromArgv(argv, { ...where, cwd: workingDirectory });
  return filesFromArgv(['', ...handed.data.files], { defaultApp: false, cwd: workingDirectory });
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
