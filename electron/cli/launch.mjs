import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// node:fs as CommonJS: its ES module face reads every export, and ReadStream's getter loads the streams.
const { readdirSync, statSync } = process.getBuiltinModule('node:fs');

/** Where the sources live and where `npm run build:cli` puts the compiled CLI. */
const SOURCE_DIRS = ['electron', 'shared'];
const SOURCE_FILES = ['package.json'];
export const BUNDLE = join('dist', 'cli', 'dubdesk.mjs');

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * The newest modification time of any file under `dir`, walked by hand: Node's recursive readdir joins and
 * normalizes every path it lists, several times slower on the few hundred files here.
 */
function newestUnder(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let newest = 0;
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) newest = Math.max(newest, newestUnder(path));
    else if (e.isFile()) newest = Math.max(newest, mtime(path) ?? 0);
  }
  return newest;
}

/** The newest modification time of any source file (a few hundred stats). */
function newestSource(root) {
  let newest = 0;
  for (const file of SOURCE_FILES) newest = Math.max(newest, mtime(join(root, file)) ?? 0);
  for (const dir of SOURCE_DIRS) newest = Math.max(newest, newestUnder(join(root, dir)));
  return newest;
}

/**
 * `bundle` when the compiled CLI exists and is not older than any source file (an edit, a pull or a
 * checkout makes it stale); `source` otherwise, so development never runs stale code.
 */
export function chooseEntry(root) {
  const built = mtime(join(root, BUNDLE));
  return built !== null && built >= newestSource(root) ? 'bundle' : 'source';
}

/**
 * Where V8 keeps the bundle's compiled code between runs: the user's cache folder (never the repository), so
 * it outlives a reboot's cleaning of the temp folder and is not another user's folder there. NODE_COMPILE_CACHE
 * still wins.
 */
function compileCacheDir() {
  const { homedir } = process.getBuiltinModule('node:os');
  const env = process.env;
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  if (process.platform === 'win32')
    return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'Dubdesk', 'Cache', 'compile');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'Dubdesk', 'compile');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'dubdesk', 'compile');
}

/** Runs the CLI from the compiled bundle, or from the TypeScript sources through tsx. */
export async function launch() {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  if (chooseEntry(root) === 'bundle') {
    // Start-up is mostly compiling the bundle: kept between runs. A folder that cannot be made or written
    // only means no cache (enableCompileCache reports it and throws nothing).
    enableCompileCache?.(compileCacheDir());
    return import(pathToFileURL(join(root, BUNDLE)).href);
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('./main.ts');
}
