import { defineConfig } from 'vitest/config';

/** Three projects: fast unit tests, server tests on PGlite and PostgreSQL, browser journeys. */
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // The default on 2 cores is one worker: everything in series. Server tests wait on
    // PostgreSQL and journeys on the browser, so two files at a time use the machine better.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['contract/**/*.test.ts', 'web/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll's own default is 1 s. In CI, beside the server tests, a screen or a shown
          // push took longer than that to appear, and two journeys failed on nothing else.
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
