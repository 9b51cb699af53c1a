import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { openStore } from '../../src/store/open-store.js';

/**
 * PGlite 0.5.14 starts PostgreSQL with fsync off (`-F`); an embedded folder is
 * opened with it on and every commit's WAL fsynced (src/store/durable-pglite.ts).
 */
describe('an embedded data folder is durable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'candor-durable-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs with fsync on and the WAL fsynced at each commit, and reopens with what it committed', async () => {
    const dataDir = join(dir, 'data');
    const store = await openStore({ dataDir });
    const setting = async (name: string) =>
      ((await store.db.execute(sql.raw(`show ${name}`))) as unknown as { rows: Record<string, string>[] }).rows[0]![name];
    expect(await setting('fsync')).toBe('on');
    expect(await setting('wal_sync_method')).toBe('fsync');
    expect(await setting('synchronous_commit')).toBe('on');
    expect(await setting('full_page_writes')).toBe('on');
    await store.db.execute(sql`create table committed (n int)`);
    await store.db.transaction(async (tx) => void (await tx.execute(sql`insert into committed values (1), (2)`)));
    await store.ping();
    await store.close();
    const again = await openStore({ dataDir });
    const { rows } = (await again.db.execute(sql`select sum(n)::int as n from committed`)) as unknown as { rows: { n: number }[] };
    expect(rows).toEqual([{ n: 3 }]);
    await again.close();
  });
});
