import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A folder for the run's migrated-store template (test/support/migrated-store.ts), removed at the end.
    globalSetup: ['test/support/store-template.ts'],
    // A `memory://` PGlite loads a migrated template instead of running initdb and every migration.
    setupFiles: ['test/support/memory-store-template.ts'],
    // A store is made once per suite (a copy of a template: well under a second; several seconds on a loaded machine).
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time on a two-core machine keeps memory (one PGlite per file) in check.
    maxWorkers: 2,
  },
});
