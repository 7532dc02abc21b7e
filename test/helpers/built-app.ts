/**
 * The desktop bundles as `npm run build` makes them (electron/main/build.mjs), in a folder laid out as a
 * packaged app's: dist/electron beside a node_modules whose packages are the project's (linked), except
 * `electron`, a stand-in that hands over the test's mocked module, and any package a test leaves out (as a
 * package built for another processor lacks its native parts).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineChild } from '../../electron/main/engine-client';
import type { FromEngine, ToEngine } from '../../electron/main/engine-protocol';
import { tempDir } from './temp-dir';

const root = join(__dirname, '..', '..');
const HOST = join(__dirname, 'engine-host.mjs');
let bundles: string | null = null;

/** main.cjs, preload.cjs and engine.cjs, built once per test process. */
export function builtBundles(): string {
  if (!bundles) {
    bundles = join(tempDir('dubdesk-bundles-'), 'electron');
    execFileSync(process.execPath, [join(root, 'electron/main/build.mjs'), '--out', bundles], {
      stdio: 'pipe',
    });
  }
  return bundles;
}

/** The folder the electron stand-in reads the mocked module from. */
export const ELECTRON_GLOBAL = '__dubdeskElectron';

/** An app folder: the bundles in dist/electron, node_modules linked but for `without`. */
export function appFolder(without: readonly string[] = []): string {
  const app = tempDir('dubdesk-app-');
  cpSync(builtBundles(), join(app, 'dist'), { recursive: true });
  const modules = join(app, 'node_modules');
  const link = (scope: string) => {
    mkdirSync(join(modules, scope), { recursive: true });
    for (const name of readdirSync(join(root, 'node_modules', scope))) {
      const id = scope ? `${scope}/${name}` : name;
      if (name.startsWith('.') || id === 'electron' || without.includes(id)) continue;
      if (!scope && name.startsWith('@')) link(name);
      else symlinkSync(join(root, 'node_modules', id), join(modules, id), 'junction');
    }
  };
  link('');
  mkdirSync(join(modules, 'electron'));
  writeFileSync(join(modules, 'electron', 'index.js'), `module.exports = globalThis.${ELECTRON_GLOBAL};\n`);
  return app;
}

/** The platform packages of the native modules installed for this machine (`@parcel/watcher-linux-x64-glibc`…). */
export function hostNativePackages(): string[] {
  return ['@parcel', '@napi-rs'].flatMap((scope) =>
    readdirSync(join(root, 'node_modules', scope))
      .filter((n) => /-(?:linux|darwin|win32)-/.test(`-${n}`))
      .map((n) => `${scope}/${n}`),
  );
}

/**
 * A built engine.cjs started under Node with a stand-in parent port, its output piped: shaped as
 * `utilityProcess.fork` returns it. Symlinks are kept as paths, so packages left out of the app folder are
 * missing for the engine, as they are in a package.
 */
export function forkBuiltEngine(
  entry: string,
  env: NodeJS.ProcessEnv = process.env,
): EngineChild & { child: ChildProcess } {
  const child = fork(HOST, [entry], {
    execArgv: ['--preserve-symlinks'],
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env,
  });
  return {
    child,
    stdout: child.stdout,
    stderr: child.stderr,
    postMessage: (m: ToEngine) => void child.send(m),
    on: ((event: 'message' | 'exit', fn: (x: never) => void) =>
      event === 'message'
        ? child.on('message', (m: FromEngine) => (fn as (m: FromEngine) => void)(m))
        : child.on('exit', (code) => (fn as (c: number) => void)(code ?? 1))) as EngineChild['on'],
    kill: () => child.kill(),
  };
}
