// electron-builder's afterPack hook: refuses a package whose native modules are not its target's (see
// natives.mjs). It runs for every target and processor electron-builder packs, before signing and installers.
import { join } from 'node:path';
import { assertNatives } from './natives.mjs';

/** electron-builder's Arch enum. */
const ARCH = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** Where a packed app keeps app.asar (and app.asar.unpacked). */
export function resourcesOf(context) {
  const platform = context.electronPlatformName;
  if (platform === 'darwin' || platform === 'mas') {
    const app = `${context.packager.appInfo.productFilename}.app`;
    return join(context.appOutDir, app, 'Contents', 'Resources');
  }
  return join(context.appOutDir, 'resources');
}

export default async function afterPack(context) {
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  const arch = ARCH[context.arch] ?? String(context.arch);
  assertNatives(join(resourcesOf(context), 'app.asar.unpacked', 'node_modules'), platform, arch);
}
