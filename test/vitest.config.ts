import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import SlowFirst from './slow-first';

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
 * Unit files that mock a module (`vi.mock('electron')`): a module mocked in a shared worker process stays
 * as the first file left it (two files registered the desktop's IPC handlers on one mocked ipcMain).
 */
const MOCKING = [
  'test/contract/ipc.test.ts',
  'test/unit/desktop/desktop-extras.test.ts',
  'test/unit/foreign-link-walk.test.ts',
];

/**
 * Integration files that change what the whole process shares: they mock a module (`vi.mock('electron')`),
 * spy on a class, wrap Node's fs builtins, set process.env, or assert that no tool host has started yet.
 * Each runs in a process of its own; the other integration files share their worker processes, where each
 * had loaded the engine and the sandbox again (a third of a small file's CPU).
 */
const INTEGRATION_ALONE = [
  'test/integration/desktop/**/*.test.ts',
  'test/integration/watch/catch-up.test.ts',
  'test/integration/watch/idle.test.ts',
  'test/integration/engine/result-hash.test.ts',
  'test/integration/engine/upload-stall.test.ts',
  'test/integration/engine/upload-stall-line.test.ts',
  'test/integration/engine/tool-host.test.ts',
  'test/integration/engine/tool-host-qc.test.ts',
  'test/integration/sandbox/own-ffmpeg.test.ts',
];

/**
 * `npm test` runs these tiers one after another (scripts/test-tiers.mjs), the fast ones first, and stops at the
 * first that fails. `--project NAME` runs one; a file path runs that file in whichever tier holds it.
 */
const tier = (
  name: string,
  include: string[],
  exclude: string[] = [],
  more: { isolate?: boolean; globalSetup?: string[] } = {},
) => ({
  extends: true,
  test: { name, include, exclude, ...more },
});

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    projects: [
      // The unit files share their worker processes: one process for each file loaded the engine and the contract
      // again every time, over a quarter of the tier's CPU. A file that changes process.env puts it back; the
      // files that mock modules run in processes of their own (unit-mocking), in the same tier.
      tier('unit', ['test/unit/**/*.test.ts', 'test/contract/**/*.test.ts'], [...SLOW_CONTRACT, ...MOCKING], {
        isolate: false,
      }),
      tier('unit-mocking', MOCKING),
      tier(
        'integration',
        ['test/integration/**/*.test.ts', ...SLOW_CONTRACT],
        [...SLOW_INTEGRATION, ...INTEGRATION_ALONE],
        {
          isolate: false,
        },
      ),
      tier('integration-alone', INTEGRATION_ALONE, SLOW_INTEGRATION),
      // test/electron (the desktop app under real Electron) runs after these, by test/electron/run-suite.mjs.
      // One renderer build and one Chromium for the tier's test processes (test/e2e-setup.ts). The browser files
      // share their worker processes as the integration files do (a process a file loaded the engine, serve and
      // Playwright again each time, a quarter of a file's CPU) and their connection to the run's Chromium.
      tier('e2e', ['test/e2e/**/*.test.ts', ...SLOW_INTEGRATION], [], {
        globalSetup: ['test/e2e-setup.ts'],
        isolate: false,
      }),
    ],
    globalSetup: ['test/temp-root.ts', 'test/cli-bundle.ts'],
    // Each file's CPU, when DUBDESK_CPU_REPORT names a file to write it to (CONTRIBUTING.md).
    setupFiles: ['test/helpers/cpu-report.ts'],
    pool: 'forks',
    // The slowest files first, across the tiers run together (test/slow-first.ts).
    sequence: { sequencer: SlowFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start sandboxes and child processes; two cores run two files at once.
    maxWorkers: 2,
  },
});
