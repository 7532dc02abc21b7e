import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a test process finds the renderer its run built (test/e2e-setup.ts). */
const SHARED = 'DUBDESK_TEST_RENDERER';

/** The renderer built as shipped (production bundle, same CSP) into `outDir`. */
export async function buildRenderer(outDir: string): Promise<string> {
  const { build } = await import('vite');
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
}

/** Builds the run's renderer once, before its test processes start, for all of them to serve. */
export async function buildSharedRenderer(): Promise<{ dir: string; root: string }> {
  const root = mkdtempSync(join(tmpdir(), 'dubdesk-renderer-'));
  const dir = await buildRenderer(join(root, 'renderer'));
  process.env[SHARED] = dir;
  return { dir, root };
}

let built: Promise<string> | null = null;

/**
 * The renderer as shipped: the run's, or one built once per test process into its own folder (a file run
 * outside the e2e tier), so test files running side by side never read a half-written build.
 */
export function builtRenderer(): Promise<string> {
  const shared = process.env[SHARED];
  built ??= shared
    ? Promise.resolve(shared)
    : buildRenderer(join(mkdtempSync(join(tmpdir(), 'dubdesk-renderer-')), 'renderer'));
  return built;
}
