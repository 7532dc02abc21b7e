import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DubdeskError } from '../../shared/contract/errors';

/** The Dubdesk package's own folder, wherever this file ends up (sources run by tsx, or a bundle). */
export function packageRoot(from = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'dubdesk') return dir;
      } catch {
        /* not ours */
      }
    }
    if (dirname(dir) === dir) throw new DubdeskError('internal', 'the Dubdesk package folder was not found');
  }
}

/**
 * The built renderer (`dist/renderer`, made by `npm run build:renderer`, which `npm install` runs). When it
 * is missing, it is built now if vite is at hand (its output goes to stderr: stdout's first line is the
 * address); otherwise the error says exactly what to run.
 */
export function rendererDir(log: (line: string) => void): string {
  // The tests serve the renderer they built from the sources as they are (dist/ may be older).
  const given = process.env.DUBDESK_RENDERER_DIR;
  if (given && existsSync(join(given, 'index.html'))) return given;
  const root = packageRoot();
  const dir = join(root, 'dist', 'renderer');
  if (existsSync(join(dir, 'index.html'))) return dir;
  const missing = new DubdeskError('config', 'the web UI is not built', {
    remedy: `Run \`npm run build:renderer\` in ${root}, then start \`dubdesk serve\` again.`,
  });
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(vite)) throw missing;
  log('The web UI is not built yet: building it now (npm run build:renderer)…');
  const built = spawnSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts'], {
    cwd: root,
    // vite reports on stdout; it goes to stderr here, since stdout's first line must be the address.
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0 || !existsSync(join(dir, 'index.html'))) throw missing;
  return dir;
}
