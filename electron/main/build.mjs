// Bundles the desktop shell into dist/electron: the main process, the preload (one CommonJS file, as a
// sandboxed preload must be) and the engine's utility process. Native modules stay outside the bundles:
// they load from node_modules (unpacked from the asar in a package).
// `--out DIR` bundles elsewhere (the tests load bundles built into a folder of their own).
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..', '..');
const out = parseArgs({ options: { out: { type: 'string' } } }).values.out ?? join(root, 'dist', 'electron');
const node = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  // The engine finds the ffmpeg shipped beside it from its own folder (media/ffmpeg/locate.ts).
  define: { 'import.meta.dirname': '__dirname' },
};
export const NATIVE = ['better-sqlite3', '@napi-rs/keyring', '@parcel/watcher'];

await build({
  ...node,
  entryPoints: [join(root, 'electron/main/main.ts')],
  outfile: `${out}/main.cjs`,
  external: ['electron'],
});
await build({
  ...node,
  entryPoints: [join(root, 'electron/main/engine-main.ts')],
  outfile: `${out}/engine.cjs`,
  external: ['electron', ...NATIVE],
});
// The preload runs in the page's sandbox: its only import is `electron`; everything else is inside it.
await build({
  ...node,
  platform: 'browser',
  target: 'chrome130',
  minify: true,
  entryPoints: [join(root, 'electron/main/preload.ts')],
  outfile: `${out}/preload.cjs`,
  external: ['electron'],
});

// Window and tray icons the main process loads at run time.
mkdirSync(`${out}/icons`, { recursive: true });
for (const [from, to] of [
  ['build/icons/512x512.png', 'icon.png'],
  ['build/icons/32x32.png', 'tray.png'],
  ['build/tray/trayTemplate.png', 'trayTemplate.png'],
  ['build/tray/trayTemplate@2x.png', 'trayTemplate@2x.png'],
])
  if (existsSync(join(root, from))) cpSync(join(root, from), `${out}/icons/${to}`);
