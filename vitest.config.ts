import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default on a 2-core machine is one worker; most test files wait on a spawned slogulate, so two keep both cores busy.
    maxWorkers: 2,
    // A worker runs file after file without a fresh process for each (about a third off the suite's time):
    // a test that changes process state (env, cwd, exit code, signal handlers) puts it back (test/run-main.ts does).
    isolate: false,
    // Entries throw when a consumer reads a field its reads did not ask for (src/scan/checked-entries.ts).
    env: { SLOGULATE_CHECK_READS: '1' },
  },
});
