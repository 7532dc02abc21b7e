import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chooseEntry } from '../electron/cli/launch.mjs';

/**
 * The CLI the tests spawn is the compiled bundle a user runs (dist/cli), built here once when a source is
 * newer than it. Left stale, every spawn ran the TypeScript sources through tsx: four times the CPU of the
 * bundle, hundreds of times a run.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (chooseEntry(root) === 'bundle') return;
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, stdio: 'inherit' });
  if (chooseEntry(root) !== 'bundle')
    throw new Error('npm run build:cli left dist/cli older than the sources');
}
