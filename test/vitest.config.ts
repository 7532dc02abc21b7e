import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: [
      'test/unit/**/*.test.ts',
      'test/contract/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/e2e/**/*.test.ts',
      // The desktop app under real Electron: skipped, with one line saying so, where its binary is absent.
      'test/electron/**/*.test.ts',
    ],
    globalSetup: ['test/temp-root.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start sandboxes and child processes; two cores run two files at once.
    maxWorkers: 2,
  },
});
