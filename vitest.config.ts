import { configDefaults, defineConfig } from 'vitest/config';

import { currentPostgresPlan } from './test/support/postgres-plan.js';

// PostgreSQL on 127.0.0.1:5432 (or CANDOR_TEST_DATABASE_URL) is looked for once per run: without it, outside CI, the
// tests that need it are left out and one line at the end says how to run them (test/support/postgres-plan.ts).
export default defineConfig(async () => {
  const postgres = await currentPostgresPlan();
  return {
    test: {
      include: ['test/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...postgres.excluded],
      provide: { postgres },
      ...(postgres.note === null
        ? {}
        : { reporters: ['default', { onTestRunEnd: () => void process.stdout.write(`\n${postgres.note}\n`) }] }),
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
  };
});
