// Where Electron's binary is, without requiring the `electron` package (which downloads it when missing).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** @returns {{ path: string } | { missing: string }} */
export function electronBinary() {
  const pkg = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const path = join(override, name ?? 'electron');
    return existsSync(path) ? { path } : { missing: `ELECTRON_OVERRIDE_DIST_PATH has no Electron (${path})` };
  }
  if (!existsSync(pkg)) return { missing: 'the electron package is not installed' };
  if (!name)
    return {
      missing:
        "Electron's binary is not installed (Electron 45 no longer downloads it at npm install: run `npx install-electron`)",
    };
  const path = join(pkg, 'dist', name);
  return existsSync(path) ? { path } : { missing: `Electron's binary is missing (${path})` };
}
