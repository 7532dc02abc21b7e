import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const NATIVE = ['better-sqlite3', '@napi-rs/keyring', '@parcel/watcher'];
/** Inside the project, so the bundles find the native modules in its node_modules as the app does. */
const outDir = fileURLToPath(new URL('../../node_modules/.cache/dubdesk-bench/', import.meta.url));
mkdirSync(outDir, { recursive: true });
const bundles = new Map<string, Promise<string>>();

/**
 * A bench script bundled the way the desktop app ships the engine (esbuild, native modules outside), so a
 * child measures the engine, not the TypeScript loader compiling modules and mapping stack traces.
 */
export function bundled(script: string): Promise<string> {
  let out = bundles.get(script);
  if (!out) {
    const outfile = join(outDir, script.replace(/^\.\//, '').replace(/\.ts$/, '.mjs'));
    out = build({
      entryPoints: [fileURLToPath(new URL(script, import.meta.url))],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      external: NATIVE,
      logLevel: 'warning',
      // CommonJS dependencies inside an ES module bundle still call require().
      banner: {
        js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      },
    }).then(() => outfile);
    bundles.set(script, out);
  }
  return out;
}

/** Runs a bench script, bundled, in a fresh Node process and parses the JSON of its last stdout line. */
export async function runChild<T>(script: string, arg: unknown, nodeArgs: string[] = []): Promise<T> {
  const file = await bundled(script);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, file, JSON.stringify(arg)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        if (code !== 0) throw new Error(`${script} exited with ${code}`);
        resolve(JSON.parse(last) as T);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

/** A bundled bench script that runs until its stdin closes (`finish`), then reports its last stdout line. */
export async function startChild<T>(script: string): Promise<{ finish(): Promise<T> }> {
  const file = await bundled(script);
  const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => out.includes('ready') && resolve());
    child.on('exit', () => reject(new Error(`${script} exited early`)));
  });
  return {
    finish: () =>
      new Promise<T>((resolve, reject) => {
        child.on('exit', () => {
          try {
            resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as T);
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
        child.stdin?.end();
      }),
  };
}
