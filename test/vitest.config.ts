import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

/** The slow tiers' files that live beside the integration tests they share helpers with. */
const SLOW_INTEGRATION = [
  'test/integration/cli/chaos.test.ts',
  'test/integration/desktop/packaging.test.ts',
  'test/integration/desktop/odd-path.test.ts',
];
/**
 * A contract file that waits on the service's real pace (a dub's pipeline, the balance read again at most
 * every 2 s): it runs with the integration tier's four workers instead of holding up the fast tier.
 */
const SLOW_CONTRACT = ['test/contract/numbers.test.ts'];

/**
 * `npm test` runs these tiers one after another (scripts/test-tiers.mjs), the fast ones first, and stops at the
 * first that fails. `--project NAME` runs one; a file path runs that file in whichever tier holds it.
 */
const tier = (name: string, include: string[], exclude: string[] = [], isolate = true) => ({
  extends: true,
  test: { name, include, exclude, isolate },
});

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    projects: [
      // The unit files share their worker processes: one process for each file loaded the engine and the contract
      // again every time, over a quarter of the tier's CPU. A file that changes global state (process.env, a
      // module mock) puts it back.
      tier('unit', ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'], SLOW_CONTRACT, false),
      tier('integration', ['test/integration/**/*.test.ts', ...SLOW_CONTRACT], SLOW_INTEGRATION),
      // test/electron (the desktop app under real Electron) runs after these, by test/electron/run-suite.mjs.
      tier('e2e', ['test/e2e/**/*.test.ts', ...SLOW_INTEGRATION]),
    ],
    globalSetup: ['test/temp-root.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start sandboxes and child processes; two cores run two files at once.
    maxWorkers: 2,
  },
});
