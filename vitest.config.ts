import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A folder for the run's migrated-store template (test/support/migrated-store.ts), removed at the end.
    globalSetup: ['test/support/store-template.ts'],
    // PGlite takes ~2 s and ~700 MB to create; a store is made once per suite, hence the long hook timeout.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time on a two-core machine keeps memory (one PGlite per file) in check.
    maxWorkers: 2,
  },
});
