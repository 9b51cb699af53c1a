// Vitest setupFile: a throw-away `memory://` PGlite starts from a migrated copy instead of running initdb.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { inject } from 'vitest';

import './store-template.js';

const MIGRATIONS = fileURLToPath(new URL('../../migrations', import.meta.url));
const create = PGlite.create.bind(PGlite) as (dataDir: string, options?: object) => Promise<PGlite>;
let template: Promise<Blob> | undefined;
let redirect = true;

/** For the file that calls it: every `memory://` store runs initdb and every migration itself (the store contract's PGlite run). */
export function initdbEachMemoryStore(): void {
  redirect = false;
}

/**
 * The data folder of an in-memory PGlite with every migration applied, as a tar PGlite can load
 * (`loadDataDir`). Made once per run, by whichever file needs it first (aside, then renamed into
 * place: a file running beside it sees a whole template or none), the way openStore makes one:
 * PGlite.create('memory://') and drizzle's PGlite migrator over migrations/.
 */
async function migratedTar(): Promise<Blob> {
  const file = join(inject('storeTemplateDir'), 'memory.tar');
  if (!existsSync(file)) {
    const client = await create('memory://');
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
      await client.exec('checkpoint');
      const making = `${file}-${process.pid}`;
      writeFileSync(making, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
      try {
        renameSync(making, file);
      } catch {
        rmSync(making, { force: true }); // the other file's template won
      }
    } finally {
      await client.close();
    }
  }
  return new Blob([readFileSync(file)]);
}

/*
 * openStore({ dataDir: 'memory://' }) calls PGlite.create('memory://'): a new cluster (initdb, ~1.5 s
 * and ~700 MB) then every migration (~0.9 s), in each of the ~70 files that build the app or a store.
 * Loaded from the migrated template it takes ~0.3 s; openStore's migrate() then finds every migration
 * applied. Only that exact call is redirected: an instance given a folder or options is untouched.
 * (Migrating a new store stays tested: the store contract on PGlite (initdbEachMemoryStore), the on-disk
 * template of migrated-store.ts, `candor migrate` in test/package, and every PostgreSQL test database.)
 */
PGlite.create = async function createFromTemplate(dataDir?: unknown, options?: unknown) {
  if (redirect && dataDir === 'memory://' && options === undefined) {
    template ??= migratedTar();
    return create('memory://', { loadDataDir: await template });
  }
  return create(dataDir as string, options as object);
} as typeof PGlite.create;
