import { defineConfig } from 'vitest/config';
import InterleavedSequencer, { WORKERS } from './vitest.sequencer.ts';

/** One embedded PostgreSQL per project that boots servers; each boot makes a database in it. */
const postgresSetup = 'apps/server/test/helpers/postgres-setup.ts';

/** Every project's files check that the file before them in the worker left the real timers. */
const workerTimers = 'apps/server/test/helpers/worker-timers.ts';

/** Server suites that measure time on the machine: the "quiet" project runs them alone, last. */
const QUIET = [
  'apps/server/test/abuse-cpu.test.ts',
  'apps/server/test/enumeration-timing.test.ts',
  'apps/server/test/embedded-postgres-start.test.ts',
];

export default defineConfig({
  test: {
    // Files run side by side: most of a server suite's time is waiting (timers, child processes,
    // PostgreSQL), and the browser journeys join them a few at a time (apps/server/test/helpers/browser-slots.ts).
    // Every project of the first group shares this number (vitest runs a group with one pool).
    maxWorkers: WORKERS,
    // A worker runs file after file of its project, loading the project's modules once, rather than
    // a new process per file: the suite's small server files took half the CPU (112 → 58 core-seconds
    // for 49 files) and the whole run 548–599 → 480–482 s on one machine (README, "Quick start"). Each
    // file still boots its own servers and databases and closes them; what files share is what the
    // servers one file boots already share (the modules' own state: the system clock's timer, say).
    isolate: false,
    setupFiles: [workerTimers],
    sequence: { sequencer: InterleavedSequencer },
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
          exclude: QUIET,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: [postgresSetup],
        },
      },
      {
        // The server suites that hold the server to a time on this machine (a login during a flood,
        // the enumeration timing, the embedded PostgreSQL's start): after everything else (a group of
        // their own), one file at a time, with nothing beside them.
        test: {
          name: 'quiet',
          include: QUIET,
          sequence: { groupOrder: 1 },
          // A fresh process for each: nothing left running by another file beside the measurement.
          isolate: true,
          maxWorkers: 1,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: [postgresSetup],
        },
      },
      { test: { name: 'bench', include: ['bench/test/**/*.test.ts'], globalSetup: [postgresSetup] } },
      { test: { name: 'web', include: ['apps/web/test/**/*.test.ts'], environment: 'node' } },
      // The CI tooling's own figures (.ci/test-durations.json, read by vitest.sequencer.ts).
      { test: { name: 'ci', include: ['.ci/**/*.test.ts'] } },
      {
        // Browser journeys: the real server and Debian's Chromium. globalSetup builds the web app once
        // first; each file holds one of a few browser slots while it runs (a browser and a server on
        // a shared 2-core machine), beside the other projects' files.
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          globalSetup: ['e2e/global-setup.ts', postgresSetup],
          setupFiles: [workerTimers, 'e2e/helpers/hold-browser-slot.ts'],
          // A page reacts after a click, a lazy chunk or a timed step; on a busy 2-core machine that can
          // take more than expect.poll's default second. Nothing here asserts how fast it is.
          expect: { poll: { timeout: 5000 } },
        },
      },
    ],
  },
});
