import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { applyGroundingThreshold } from '../../src/eval/calibrate/kb-grounding-settings.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { KnowledgeIndexCache } from '../../src/kb/knowledge-index-cache.js';
import { KB_CHANGE_CHANNEL } from '../../src/store/kb-change-listener.js';
import { knowledgeBases } from '../../src/store/schema.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { DRIVERS, useTestStore, withoutPostgres } from '../support/stores.js';

const files = tempFiles({
  'v1.jsonl': jsonl(HANDBOOK_FACTS),
  'v2.jsonl': jsonl([{ id: 'HB-98', text: 'The gym on level 3 opens at 6 am on weekdays.', source: 'handbook#gym' }]),
  'v3.jsonl': jsonl([{ id: 'HB-99', text: 'Bicycles may be parked in the basement racks.', source: 'handbook#bikes' }]),
});
afterAll(() => files.cleanup());

describe.each(DRIVERS)('KB versions announced by the store, not read per ask (%s)', (driver) => {
  const used = useTestStore(driver);
  beforeAll(async () => {
    await ingestPaths(used.store.db, [files.path('v1.jsonl')], { kb: 'handbook' });
  });

  it('a serving cache trusts the version it read until a notice says the KB changed', async () => {
    const cache = new KnowledgeIndexCache(used.store.db);
    cache.serveWhileBuilding({ maxWaitMs: 5_000, trustVersionsMs: 3_600_000 });
    const first = await cache.get('handbook');
    const notices: (string | null)[] = [];
    const stop = await used.store.watchKbChanges((kb) => {
      notices.push(kb);
      cache.changed(kb);
    });
    try {
      // The cache would keep version 1 for an hour: the notice is what moves it on.
      await ingestPaths(used.store.db, [files.path('v2.jsonl')], { kb: 'handbook' });
      await expect.poll(() => notices.includes('handbook')).toBe(true);
      await expect.poll(async () => (await cache.get('handbook')).version, { timeout: 10_000 }).toBe(first.version + 1);
    } finally {
      await stop();
    }
  });

  it('without a notice, a trusted version is kept (no round trip); an untrusting cache reads every time', async () => {
    const trusting = new KnowledgeIndexCache(used.store.db);
    trusting.serveWhileBuilding({ maxWaitMs: 5_000, trustVersionsMs: 3_600_000 });
    const reading = new KnowledgeIndexCache(used.store.db);
    reading.serveWhileBuilding({ maxWaitMs: 5_000 });
    const before = (await trusting.get('handbook')).version;
    expect((await reading.get('handbook')).version).toBe(before);
    await ingestPaths(used.store.db, [files.path('v3.jsonl')], { kb: 'handbook' });
    await expect.poll(async () => (await reading.get('handbook')).version, { timeout: 10_000 }).toBe(before + 1);
    expect((await trusting.get('handbook')).version).toBe(before);
    trusting.changed(null);
    await expect.poll(async () => (await trusting.get('handbook')).version, { timeout: 10_000 }).toBe(before + 1);
  });

  it('a calibrated gate setting is announced too', async () => {
    const notices: (string | null)[] = [];
    const stop = await used.store.watchKbChanges((kb) => notices.push(kb));
    try {
      const db = (used.store.db as unknown as { $client: { query(sql: string): Promise<unknown> } }).$client;
      await db.query(
        `insert into kb_gate_settings (kb_id, version, min_answerability, method, model, note)
         select id, 1, 0.5, 'calibrate:questions', 'm@1', 'test' from knowledge_bases where name = 'handbook'`,
      );
      await expect.poll(() => notices).toContain('handbook');
    } finally {
      await stop();
    }
  });

  it('a calibrated grounding threshold is announced, and a serving cache holds the next ask to it', async () => {
    const cache = new KnowledgeIndexCache(used.store.db);
    cache.serveWhileBuilding({ maxWaitMs: 5_000, trustVersionsMs: 3_600_000 });
    expect((await cache.get('handbook')).groundingSetting).toBeNull();
    const notices: (string | null)[] = [];
    const stop = await used.store.watchKbChanges((kb) => {
      notices.push(kb);
      cache.changed(kb);
    });
    try {
      const [kb] = await used.store.db.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.name, 'handbook'));
      const applied = await applyGroundingThreshold(used.store.db, kb!.id, {
        threshold: 0.62,
        method: 'calibrate-grounding:model',
        checker: 'c',
        note: 'test',
      });
      await expect.poll(() => notices).toContain('handbook');
      // The cache trusts what it read for an hour: the notice is what makes it read the new setting.
      await expect
        .poll(async () => (await cache.get('handbook')).groundingSetting)
        .toEqual({
          version: applied.version,
          threshold: 0.62,
          method: 'calibrate-grounding:model',
          checker: 'c',
        });
    } finally {
      await stop();
    }
  });
});

describe.skipIf(withoutPostgres)('the PostgreSQL listener', () => {
  const used = useTestStore('postgres');

  it('a dropped listening connection says "anything may have changed" and listens again', async () => {
    const notices: (string | null)[] = [];
    const stop = await used.store.watchKbChanges((kb) => notices.push(kb));
    const admin = new pg.Client({ connectionString: used.testStore.databaseUrl });
    await admin.connect();
    try {
      notices.length = 0;
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = 'LISTEN ${KB_CHANGE_CHANNEL}'`,
      );
      await expect.poll(() => notices, { timeout: 10_000 }).toContain(null);
      // Reconnected (about a second later): notices arrive again.
      await expect
        .poll(
          async () => {
            await admin.query(`select pg_notify('${KB_CHANGE_CHANNEL}', 'probe')`);
            return notices.includes('probe');
          },
          { timeout: 15_000, interval: 500 },
        )
        .toBe(true);
    } finally {
      await admin.end();
      await stop();
    }
  });
});
