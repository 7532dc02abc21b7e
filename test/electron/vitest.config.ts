import { defineConfig } from 'vitest/config';
import base from '../vitest.config';

/** The desktop suite: one Electron app at a time (each is a whole browser), run by test/electron/run-suite.mjs. */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/electron/**/*.test.ts'],
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
