import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

import { openStore, type Store } from '../../src/store/open-store.js';
import { POSTGRES_URL, redact } from './postgres-plan.js';

export { POSTGRES_URL } from './postgres-plan.js';

export type DriverName = 'pglite' | 'postgres';

/** A fresh, migrated store and how to throw it away. */
export interface TestStore {
  readonly driver: DriverName;
  readonly store: Store;
  /** The database URL for PostgreSQL (undefined for PGlite). */
  readonly databaseUrl: string | undefined;
  /** Closes the store (a second close is harmless) and drops the PostgreSQL database. */
  dispose(): Promise<void>;
}

/**
 * Why this run leaves out the tests that need the PostgreSQL server (vitest.config.ts found none, outside CI),
 * or '' when they run: `describe.skipIf(withoutPostgres)`. In CI they always run, and fail when it is down.
 */
export const withoutPostgres: string = process.env.VITEST && !inject('postgres').server ? 'no PostgreSQL server' : '';

/** The drivers the store tests run on: PGlite always, PostgreSQL unless this run leaves it out. */
export const DRIVERS: readonly DriverName[] = withoutPostgres ? ['pglite'] : ['pglite', 'postgres'];

/**
 * Opens a fresh store on `driver`. PGlite lives in memory (about 2 s and 700 MB
 * to create, so make one per suite, not per test); PostgreSQL gets a database
 * of its own, `candor_test_<random>`, on POSTGRES_URL.
 */
export async function createTestStore(driver: DriverName): Promise<TestStore> {
  if (driver === 'pglite') {
    const store = await openStore({ dataDir: 'memory://' });
    return { driver, store, databaseUrl: undefined, dispose: () => closeQuietly(store) };
  }
  const name = `candor_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database ${name}`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let store: Store;
  try {
    store = await openStore({ databaseUrl, dataDir: 'unused', poolSize: 4 });
  } catch (error) {
    await dropDatabase(name);
    throw error;
  }
  return {
    driver,
    store,
    databaseUrl,
    async dispose() {
      await closeQuietly(store);
      await dropDatabase(name);
    },
  };
}

/**
 * Registers beforeAll/afterAll hooks that give the enclosing suite one fresh
 * store; read `.store` inside tests and hooks that run after it. When the
 * store cannot be opened (PostgreSQL down), every test that uses it fails
 * with the reason, rather than the suite being reported as skipped.
 */
export function useTestStore(driver: DriverName): { readonly store: Store; readonly testStore: TestStore } {
  let current: TestStore | undefined;
  let failure: unknown;
  beforeAll(async () => {
    try {
      current = await createTestStore(driver);
    } catch (error) {
      failure = error;
    }
  });
  afterAll(async () => {
    await current?.dispose();
    current = undefined;
  });
  return {
    get testStore() {
      if (failure !== undefined) throw failure;
      if (!current) throw new Error(`the ${driver} test store is not open (use it inside tests or later hooks)`);
      return current;
    },
    get store() {
      return this.testStore.store;
    },
  };
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (cause) {
    throw new Error(
      `Cannot connect to PostgreSQL at ${redact(POSTGRES_URL)} (set CANDOR_TEST_DATABASE_URL, or start it: ` +
        `pg_ctlcluster --skip-systemctl-redirect 15 main start): ${(cause as Error).message}`,
      { cause },
    );
  }
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase(name: string): Promise<void> {
  await withAdmin(async (admin) => {
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    await admin.query(`drop database if exists ${name} with (force)`);
  });
}

async function closeQuietly(store: Store): Promise<void> {
  // A test may already have closed it (fail-closed checks); a second close is not an error here.
  await store.close().catch(() => undefined);
}
