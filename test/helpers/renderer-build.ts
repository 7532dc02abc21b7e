import { join } from 'node:path';
import { build } from 'vite';
import { tempDir } from './temp-dir';
import { fileURLToPath } from 'node:url';

let built: Promise<string> | null = null;

/**
 * The renderer built as shipped (production bundle, same CSP), once per test process and into its own
 * folder, so test files running side by side never read a half-written build.
 */
export function builtRenderer(): Promise<string> {
  built ??= (async () => {
    const outDir = join(tempDir('dubdesk-renderer-'), 'renderer');
    // vitest sets NODE_ENV=test, which vite would honour with React's development build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        configFile: fileURLToPath(new URL('../../renderer/vite.config.ts', import.meta.url)),
        mode: 'production',
        logLevel: 'warn',
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    return outDir;
  })();
  return built;
}
