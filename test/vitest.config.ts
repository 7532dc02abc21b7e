import { defineConfig } from 'vitest/config';

/** The slow tiers' files that live beside the integration tests they share helpers with. */
const SLOW_INTEGRATION = ['test/integration/cli/chaos.test.ts', 'test/integration/desktop/packaging.test.ts'];

/**
 * `npm test` runs these tiers one after another (scripts/test-tiers.mjs), the fast ones first, and stops at the
 * first that fails. `--project NAME` runs one; a file path runs that file in whichever tier holds it.
 */
const tier = (name: string, include: string[], exclude: string[] = []) => ({
  extends: true,
  test: { name, include, exclude },
});

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    projects: [
      tier('unit', ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts']),
      tier('integration', ['test/integration/**/*.test.ts'], SLOW_INTEGRATION),
      // test/electron: the desktop app under real Electron, where its binary is installed.
      tier('e2e', ['test/e2e/**/*.test.ts', 'test/electron/**/*.test.ts', ...SLOW_INTEGRATION]),
    ],
    globalSetup: ['test/temp-root.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start sandboxes and child processes; two cores run two files at once.
    maxWorkers: 2,
  },
});
