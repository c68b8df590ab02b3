import { defineConfig } from 'vitest/config';

/** One embedded PostgreSQL per project that boots servers; each boot makes a database in it. */
const postgresSetup = 'apps/server/test/helpers/postgres-setup.ts';

export default defineConfig({
  test: {
    // CI keeps each file's duration too (.ci/run prints them, the slowest first).
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.tmp/test-report.json' }]] : ['default'],
    projects: [
      { test: { name: 'engine', include: ['packages/engine/test/**/*.test.ts'] } },
      { test: { name: 'protocol', include: ['packages/protocol/test/**/*.test.ts'] } },
      {
        // Real servers, real databases and child processes on a shared 2-core machine: generous limits.
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: [postgresSetup],
        },
      },
      { test: { name: 'bench', include: ['bench/test/**/*.test.ts'], globalSetup: [postgresSetup] } },
      { test: { name: 'web', include: ['apps/web/test/**/*.test.ts'], environment: 'node' } },
      {
        // Browser journeys: the real server and Debian's Chromium. globalSetup builds the web app once
        // first; files run one at a time (each launches a browser on a shared 2-core machine).
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          globalSetup: ['e2e/global-setup.ts', postgresSetup],
          fileParallelism: false,
          // A page reacts after a click, a lazy chunk or a timed step; on a busy 2-core machine that can
          // take more than expect.poll's default second. Nothing here asserts how fast it is.
          expect: { poll: { timeout: 5000 } },
        },
      },
    ],
  },
});
