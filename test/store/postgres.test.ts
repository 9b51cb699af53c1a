import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { openStore, type Store } from '../../src/store/open-store.js';
import { createTestStore, type TestStore } from '../support/stores.js';
import { storeContract } from './store-contract.js';

storeContract('postgres');

describe('PostgreSQL replicas', () => {
  const opened: Store[] = [];
  let base: TestStore | undefined;
  afterAll(async () => {
    for (const store of opened) await store.close().catch(() => undefined);
    await base?.dispose();
  });

  it('replicas starting together apply each migration once', async () => {
    base = await createTestStore('postgres');
    const url = base.databaseUrl as string;
    opened.push(...(await Promise.all([1, 2, 3].map(() => openStore({ databaseUrl: url, dataDir: 'unused', poolSize: 2 })))));
    const result = (await base.store.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as {
      rows: { n: number }[];
    };
    const journal = JSON.parse(readFileSync(new URL('../../migrations/meta/_journal.json', import.meta.url), 'utf8')) as {
      entries: unknown[];
    };
    expect(result.rows).toEqual([{ n: journal.entries.length }]);
    expect(opened.map((s) => s.kind)).toEqual(['postgres', 'postgres', 'postgres']);
  });
});
