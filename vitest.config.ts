import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default on a 2-core machine is one worker; most test files wait on a spawned slogulate, so two keep both cores busy.
    maxWorkers: 2,
    // Entries throw when a consumer reads a field its reads did not ask for (src/scan/checked-entries.ts).
    env: { SLOGULATE_CHECK_READS: '1' },
  },
});
