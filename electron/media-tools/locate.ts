import { constants, existsSync, statSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, dirname, join, sep } from 'node:path';
import { runTool } from './run';

/**
 * Where Dubdesk's ffmpeg and ffprobe come from, first found first: the ones shipped with it (the
 * @ffmpeg-installer / @ffprobe-installer package of this system and processor, unpacked beside the app's
 * asar), then `DUBDESK_FFMPEG` (the path of an ffmpeg; its ffprobe beside it, or `DUBDESK_FFPROBE`), then
 * the PATH. The shell's PATH is never needed: an app started from Finder or the Start menu has none.
 */
export type ToolsFrom = 'bundled' | 'DUBDESK_FFMPEG' | 'PATH';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  from: ToolsFrom;
  /** `ffmpeg -version`'s first line, e.g. `ffmpeg version 6.1.1`. */
  version: string;
}

export interface ToolsSearch {
  /** What was found, or null: then the whole file is sent. */
  tools: MediaTools | null;
  /** Candidates that were there but did not work, one line each (for `doctor` and the log). */
  problems: string[];
}

export interface LocateOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Folders to look up from for `node_modules`; default: this module's folder and the app's resources. */
  from?: readonly string[];
}

const exe = (platform: NodeJS.Platform, name: string) => (platform === 'win32' ? `${name}.exe` : name);

/**
 * The packages holding this target's binaries. Windows on Arm has none: it runs the x64 build under its
 * emulation, which is what build/natives.mjs packs for it.
 */
export function bundledPackages(platform: string, arch: string): { ffmpeg: string; ffprobe: string } {
  const target = platform === 'win32' && arch === 'arm64' ? 'win32-x64' : `${platform}-${arch}`;
  return { ffmpeg: `@ffmpeg-installer/${target}`, ffprobe: `@ffprobe-installer/${target}` };
}

/** A path inside app.asar as its unpacked twin: a binary cannot be run from inside the archive. */
export const unpacked = (path: string) =>
  path.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`);

function startFolders(): string[] {
  const here = import.meta.dirname;
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  return [...(here ? [here] : []), ...(resources ? [join(resources, 'app.asar.unpacked')] : [])];
}

/** `node_modules/<pkg>/<bin>` in the nearest folder up from `start` that has it. */
function findUp(start: string, pkg: string, bin: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = unpacked(join(dir, 'node_modules', pkg, bin));
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

function bundled(opts: Required<LocateOptions>): { ffmpeg: string; ffprobe: string } | null {
  const pkgs = bundledPackages(opts.platform, opts.arch);
  for (const start of opts.from) {
    const ffmpeg = findUp(start, pkgs.ffmpeg, exe(opts.platform, 'ffmpeg'));
    const ffprobe = findUp(start, pkgs.ffprobe, exe(opts.platform, 'ffprobe'));
    if (ffmpeg && ffprobe) return { ffmpeg, ffprobe };
  }
  return null;
}

async function runnable(path: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    if (!statSync(path).isFile()) return false;
    await access(path, platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function onPath(name: string, opts: Required<LocateOptions>): Promise<string | null> {
  const path = opts.env.PATH ?? opts.env.Path ?? '';
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, exe(opts.platform, name));
    if (await runnable(candidate, opts.platform)) return candidate;
  }
  return null;
}

/** `ffmpeg -version`'s first line, or why it did not answer. */
async function versionOf(ffmpeg: string): Promise<{ version: string } | { problem: string }> {
  try {
    const { stdout } = await runTool(ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 15_000 });
    const first = stdout.split('\n')[0]?.trim() ?? '';
    if (!/^ffmpeg version /i.test(first)) return { problem: `${ffmpeg} is not ffmpeg (it says "${first}")` };
    return { version: first.replace(/ Copyright.*$/i, '') };
  } catch (e) {
    return { problem: `${ffmpeg} does not run: ${(e as Error).message}` };
  }
}

async function candidates(opts: Required<LocateOptions>) {
  const list: { from: ToolsFrom; ffmpeg: string; ffprobe: string | null }[] = [];
  const shipped = bundled(opts);
  if (shipped) list.push({ from: 'bundled', ...shipped });
  const named = opts.env.DUBDESK_FFMPEG?.trim();
  if (named) {
    const probe = opts.env.DUBDESK_FFPROBE?.trim() || join(dirname(named), exe(opts.platform, 'ffprobe'));
    list.push({ from: 'DUBDESK_FFMPEG', ffmpeg: named, ffprobe: probe });
  }
  const ffmpeg = await onPath('ffmpeg', opts);
  if (ffmpeg) list.push({ from: 'PATH', ffmpeg, ffprobe: await onPath('ffprobe', opts) });
  return list;
}

/** Looks for a working ffmpeg and ffprobe pair, in the order above. */
export async function locateMediaTools(options: LocateOptions = {}): Promise<ToolsSearch> {
  const opts: Required<LocateOptions> = {
    env: options.env ?? process.env,
    platform: options.platform ?? process.platform,
    arch: options.arch ?? process.arch,
    from: options.from ?? startFolders(),
  };
  const problems: string[] = [];
  for (const c of await candidates(opts)) {
    const where =
      c.from === 'PATH' ? 'on the PATH' : c.from === 'bundled' ? 'shipped with Dubdesk' : 'DUBDESK_FFMPEG';
    if (!(await runnable(c.ffmpeg, opts.platform))) {
      problems.push(`ffmpeg ${where} (${c.ffmpeg}) is missing or not executable`);
      continue;
    }
    if (!c.ffprobe || !(await runnable(c.ffprobe, opts.platform))) {
      problems.push(`ffmpeg ${where} (${c.ffmpeg}) has no ffprobe${c.ffprobe ? ` at ${c.ffprobe}` : ''}`);
      continue;
    }
    const v = await versionOf(c.ffmpeg);
    if ('problem' in v) {
      problems.push(v.problem);
      continue;
    }
    return { tools: { ffmpeg: c.ffmpeg, ffprobe: c.ffprobe, from: c.from, version: v.version }, problems };
  }
  return { tools: null, problems };
}

let cached: { key: string; search: Promise<ToolsSearch> } | null = null;

/** This process's tools, looked for once (again only when `DUBDESK_FFMPEG` or the PATH changed). */
export function mediaTools(env: NodeJS.ProcessEnv = process.env): Promise<ToolsSearch> {
  const key = JSON.stringify([env.DUBDESK_FFMPEG, env.DUBDESK_FFPROBE, env.PATH]);
  if (cached?.key !== key) cached = { key, search: locateMediaTools({ env }) };
  return cached.search;
}

/** What a user reads when no ffmpeg was found: where Dubdesk looked and how to give it one. */
export const NO_FFMPEG =
  'no ffmpeg found (none shipped with this install, DUBDESK_FFMPEG unset, none on the PATH): the whole file is sent';
