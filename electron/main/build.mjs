// Bundles the Electron main process and preload into dist/electron (CommonJS, as a sandboxed preload needs).
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: true,
  external: ['electron', 'better-sqlite3'],
};
await build({ ...common, entryPoints: ['electron/main/main.ts'], outfile: 'dist/electron/main.cjs' });
await build({ ...common, entryPoints: ['electron/main/preload.ts'], outfile: 'dist/electron/preload.cjs' });
