import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { webConnectorFor } from '../../../src/app/source-sync.js';
import { DEFAULT_INGEST_LIMITS } from '../../../src/config/ingest-limits.js';
import { kbStatus } from '../../../src/kb/ingest/ingest.js';
import { addSource, findSource } from '../../../src/kb/sources/source-records.js';
import { startSourceSchedule } from '../../../src/kb/sources/source-runner.js';
import type { Log } from '../../../src/kernel/log.js';
import { openStore, type Store } from '../../../src/store/open-store.js';
import { useTestStore, withoutPostgres } from '../../support/stores.js';

/** Two replicas on one PostgreSQL database, both looking for due sources five times a second. */
describe.skipIf(withoutPostgres)('source syncs across replicas (postgres)', () => {
  const used = useTestStore('postgres');
  const root = mkdtempSync(join(tmpdir(), 'candor-source-replicas-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('each due sync runs on one replica only, and the next run is a period later', async () => {
    writeFileSync(join(root, 'leave.md'), '# Leave\n\nStaff get 25 days of annual leave.\n');
    const second: Store = await openStore({ databaseUrl: used.testStore.databaseUrl!, dataDir: 'unused', poolSize: 2 });
    const synced: string[] = [];
    const logOf =
      (replica: string): Log =>
      (_level, message) =>
        void (message === 'source synced' && synced.push(replica));
    const deps = (store: Store, replica: string) => ({
      store,
      log: logOf(replica),
      limits: DEFAULT_INGEST_LIMITS,
      paceMs: 0,
      timeoutMs: 10_000,
      webConnector: webConnectorFor,
    });
    const replicas = [startSourceSchedule(deps(used.store, 'a'), 200), startSourceSchedule(deps(second, 'b'), 200)];
    try {
      const source = await addSource(
        used.store.db,
        { kb: 'replicated', source: root, kind: 'folder', everySeconds: 3600, include: null, maxPages: 100 },
        new Date(),
      );
      await expect
        .poll(async () => (await findSource(used.store.db, source!.id))?.lastOutcome, { timeout: 60_000, interval: 100 })
        .toBe('changed');
      // Twenty more looks by each replica: the source is not due again for an hour.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(synced).toHaveLength(1);
      expect((await kbStatus(used.store.db, 'replicated'))?.version).toBe(1);
      const row = await findSource(used.store.db, source!.id);
      expect(row!.nextRunAt.getTime() - row!.lastSyncAt!.getTime()).toBe(3_600_000);
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
      await second.close();
    }
  });
});
