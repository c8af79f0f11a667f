import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/support/slowest-first.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Most test files wait on sockets, child processes and browsers, not on the CPU: run more files at once than
    // there are cores (vitest's default, one fewer than the cores, runs one file at a time on two).
    maxWorkers: Math.max(3, availableParallelism()),
    // A worker runs file after file with the modules it has loaded: the tests keep no state between files, and
    // loading the project afresh for each of them cost as much CPU as many of the tests.
    isolate: false,
    // The slowest files (test/support/slowest-files.json) start first, so that none of them runs alone at the end.
    sequence: { sequencer: SlowestFirst },
    // Socket and process tests wait on real events with their own bounded timeouts.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
