import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { CandorError } from '../errors.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Store {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface StoreOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  readonly databaseUrl?: string | undefined;
  /** PGlite directory, or `memory://` for a throw-away database. */
  readonly dataDir: string;
  /** Pool size for PostgreSQL. @default 10 */
  readonly poolSize?: number;
}

const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));

/** Opens the configured database and applies pending migrations (safe to run on every start). */
export async function openStore(options: StoreOptions): Promise<Store> {
  try {
    return options.databaseUrl ? await openPostgres(options.databaseUrl, options.poolSize ?? 10) : await openPglite(options.dataDir);
  } catch (cause) {
    if (cause instanceof CandorError) throw cause;
    const where = options.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${options.dataDir}`;
    throw new CandorError('store_unavailable', `Could not open ${where}: ${(cause as Error).message}`, { cause });
  }
}

async function openPglite(dataDir: string): Promise<Store> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}

async function openPostgres(url: string, max: number): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined); // idle-client errors surface on the next query instead
  const db = drizzlePg(pool, { schema });
  await migrationLock(pool, () => migratePg(db, { migrationsFolder: MIGRATIONS }));
  return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
}

/** Replicas starting together must not race to apply the same migration. */
async function migrationLock(pool: pg.Pool, run: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(727100)');
    await run();
  } finally {
    await client.query('select pg_advisory_unlock(727100)').catch(() => undefined);
    client.release();
  }
}
