import { configDefaults, defineConfig } from 'vitest/config';

/** The tests that run a database cluster (server/reliability/cluster.ts). */
const CLUSTER_TESTS = ['server/reliability/failover.test.ts', 'server/db/backupCluster.test.ts'];

/**
 * Four projects: fast unit tests, server tests on PGlite and PostgreSQL, browser journeys, and
 * the database cluster's tests after them all.
 */
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
          exclude: [...configDefaults.exclude, ...CLUSTER_TESTS],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        // A database cluster and its load (two PostgreSQL servers, Patroni, two app processes)
        // fill both cores: beside a journey, its browser's server shed requests as too busy. So
        // these run last, by themselves.
        test: {
          name: 'cluster',
          include: CLUSTER_TESTS,
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 1 },
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
