import { mkdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

import { CandorError } from '../kernel/errors.js';
import type { Log } from '../kernel/log.js';
import { lockDataDir } from './data-dir-lock.js';
import { openDurablePglite } from './durable-pglite.js';
import { KB_CHANGE_CHANNEL, listenForKbChanges, type KbChangeNotify } from './kb-change-listener.js';
import { startPeriodicCheckpoint } from './periodic-checkpoint.js';
import { PgliteGuard } from './pglite-guard.js';
import * as schema from './schema.js';
import { probeWrite } from './write-probe.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Store {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` only if no other holder (in any replica sharing the database) has
   * the named lock; returns `{ ran: false }` at once otherwise. The lock goes
   * with the holder's connection, so a crashed replica never keeps it.
   */
  withTryLock<T>(name: string, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  /**
   * Resolves when the database can take a write now; throws with why otherwise. PostgreSQL: a
   * trivial query. PGlite: its folder takes a new page-sized file (a full or read-only disk still
   * answers `select 1`) and the instance answers (reopening it if a failed write stopped it).
   */
  ping(): Promise<void>;
  /**
   * Calls `notify` with a KB's name whenever its version or a calibrated setting of it (gate, grounding) changes, in any process
   * sharing the database (PostgreSQL LISTEN/NOTIFY; PGlite's own notifications, in process), and with null
   * when changes may have been missed. Resolves with a function that stops listening.
   */
  watchKbChanges(notify: KbChangeNotify): Promise<() => Promise<void>>;
  /**
   * Embedded folder only: hands each connection to the folder's lock socket (owner-only) to `handler`, so that a
   * CLI beside this process can reach it; false where there is no such socket (PostgreSQL, memory://, a folder
   * that cannot hold a socket).
   */
  acceptOnLock(handler: (socket: Socket) => void): boolean;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  readonly databaseUrl?: string | undefined;
  /** PGlite directory, or `memory://` for a throw-away database. */
  readonly dataDir: string;
  /** Pool size for PostgreSQL. @default 10 */
  readonly poolSize?: number;
  /** What this process is doing with an embedded folder, for the lock note another process reads. @default 'candor' */
  readonly purpose?: string;
  /** Where the embedded store says it stopped or reopened after a failed write. */
  readonly log?: Log;
  /** Embedded folder: checkpoint this often when anything was written (0: by WAL amount and at shutdown only). @default 300000 */
  readonly checkpointMs?: number;
  /** Embedded folder: checkpoint once this much WAL has piled up since the last one (looked at every 5 s). @default 128 */
  readonly checkpointWalMb?: number;
}

/** How often an embedded store checkpoints while written to (CANDOR_EMBEDDED_CHECKPOINT_MS). */
export const DEFAULT_CHECKPOINT_MS = 300_000;
/** The WAL after which an embedded store checkpoints at once (CANDOR_EMBEDDED_CHECKPOINT_WAL_MB). */
export const DEFAULT_CHECKPOINT_WAL_MB = 128;

const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));

/** Opens the configured database and applies pending migrations (safe to run on every start). */
export async function openStore(options: StoreOptions): Promise<Store> {
  try {
    return options.databaseUrl ? await openPostgres(options.databaseUrl, options.poolSize ?? 10) : await openPglite(options);
  } catch (cause) {
    if (cause instanceof CandorError) throw cause;
    const where = options.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${options.dataDir}`;
    throw new CandorError('store_unavailable', `Could not open ${where}: ${(cause as Error).message}`, { cause });
  }
}

async function openPglite(options: StoreOptions): Promise<Store> {
  const { dataDir, log } = options;
  const purpose = options.purpose ?? 'candor';
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const lock = inMemory ? null : await lockDataDir(dataDir, purpose);
  let client: PGlite;
  try {
    client = inMemory ? await PGlite.create(dataDir) : await openDurablePglite(dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const where = `the embedded database in ${dataDir}`;
  const reopen = async () => {
    await probeWrite(dataDir); // a read-only or full folder: not worth starting PostgreSQL to find out
    return openDurablePglite(dataDir);
  };
  const guard = new PgliteGuard(client, { where, log, ...(inMemory ? {} : { reopen }) });
  const db = drizzlePglite(guard as unknown as PGlite, { schema });
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS });
  } catch (error) {
    await guard.close(true).catch(() => undefined);
    lock?.release();
    throw error;
  }
  // An in-memory database has no WAL on disk to replay.
  const checkpoints = inMemory
    ? null
    : startPeriodicCheckpoint(guard, {
        everyMs: options.checkpointMs ?? DEFAULT_CHECKPOINT_MS,
        walBytes: (options.checkpointWalMb ?? DEFAULT_CHECKPOINT_WAL_MB) * 2 ** 20,
        log,
      });
  // One process owns a PGlite directory, so an in-process lock is the whole story.
  const held = new Set<string>();
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    async ping() {
      if (!inMemory) await probeWrite(dataDir);
      await guard.query('select 1');
    },
    watchKbChanges: (notify) => guard.listen(KB_CHANGE_CHANNEL, notify),
    acceptOnLock: (handler) => lock?.accept(handler) ?? false,
    async withTryLock(name, fn) {
      if (held.has(name)) return { ran: false };
      held.add(name);
      try {
        return { ran: true, value: await fn() };
      } finally {
        held.delete(name);
      }
    },
    async close() {
      checkpoints?.stop();
      try {
        // On a folder that no longer takes writes, a clean close (a checkpoint) would fail or hang: the next start replays the WAL.
        const writable =
          inMemory ||
          (await probeWrite(dataDir).then(
            () => true,
            () => false,
          ));
        await guard.close(writable);
      } finally {
        lock?.release();
      }
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Store> {
  // A bounded connect: with the server unreachable, asks fail closed quickly instead of hanging.
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => undefined); // idle-client errors surface on the next query instead
  const db = drizzlePg(pool, { schema });
  await migrationLock(pool, () => migratePg(db, { migrationsFolder: MIGRATIONS }));
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    ping: async () => void (await pool.query('select 1')),
    watchKbChanges: (notify) => listenForKbChanges(url, notify),
    acceptOnLock: () => false,
    async withTryLock(name, fn) {
      // A session-level advisory lock on a dedicated connection: held for the whole run, released on crash.
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [name]);
        if (!rows[0]?.ok) return { ran: false };
        try {
          return { ran: true, value: await fn() };
        } finally {
          await client.query('select pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
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
