import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Entries throw when a consumer reads a field its reads did not ask for (src/scan/checked-entries.ts).
    env: { SLOGULATE_CHECK_READS: '1' },
  },
});
