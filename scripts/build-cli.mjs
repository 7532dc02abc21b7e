// Compiles the CLI to dist/cli/dubdesk.mjs (`npm run build:cli`, run by `npm install`): one bundle, with the
// commands' heavy parts (engine, sandbox, progress) split into chunks loaded only when a command runs.
// `electron/cli/dubdesk.mjs` uses it while it is newer than every source file.
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(root, process.argv[2] ?? join('dist', 'cli'));

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // An install without dev dependencies: the CLI runs from its TypeScript sources through tsx instead.
  console.log('build:cli: esbuild is not installed; dubdesk runs from the TypeScript sources.');
  process.exit(0);
}

/**
 * Node's built-in modules as CommonJS (`require`) rather than ES imports: an ES import of a built-in makes
 * Node read every export of it, and `node:http`'s include WebSocket and friends, which load the whole of
 * undici (a tenth of a second at every start, for a command that may send nothing). esbuild's interop
 * reads each name only when the code uses it.
 */
const builtinsAsRequire = {
  name: 'builtins-as-require',
  setup(build) {
    const names = builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|');
    build.onResolve({ filter: new RegExp(`^(node:.*|${names})$`) }, (args) =>
      args.kind === 'require-call'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'builtin-as-require' },
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin-as-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

// Built beside, then moved into place: a half-written bundle is never taken for a fresh one.
const next = `${out}.next`;
rmSync(next, { recursive: true, force: true });
mkdirSync(dirname(out), { recursive: true });
await esbuild.build({
  absWorkingDir: root,
  entryPoints: { dubdesk: 'electron/cli/main.ts' },
  outdir: next,
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.22',
  // Native code stays a real package, resolved from node_modules at run time.
  external: ['better-sqlite3', '@napi-rs/keyring', '@parcel/watcher'],
  // CommonJS dependencies call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __dubdeskRequire } from 'node:module'; const require = __dubdeskRequire(import.meta.url);",
  },
  plugins: [builtinsAsRequire],
  legalComments: 'linked',
  logLevel: 'warning',
});
rmSync(out, { recursive: true, force: true });
renameSync(next, out);
