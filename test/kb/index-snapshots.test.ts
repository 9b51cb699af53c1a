import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { addExpertFact, retireFact } from '../../src/kb/expert-facts.js';
import { ingestPaths } from '../../src/kb/ingest/ingest.js';
import { KnowledgeIndexCache } from '../../src/kb/knowledge-index-cache.js';
import type { KnowledgeIndex } from '../../src/kb/knowledge-index.js';
import type { Db } from '../../src/store/open-store.js';
import { knowledgeBases } from '../../src/store/schema.js';
import { HANDBOOK_FACTS, jsonl, tempFiles } from '../support/compose.js';
import { createTestStore, DRIVERS, useTestStore } from '../support/stores.js';

const QUESTIONS = ['How many days of annual leave do I get?', 'Where is the gym?', 'How do I claim expenses?', 'When is the canteen open?'];

function answersOf(index: KnowledgeIndex) {
  return {
    version: index.version,
    facts: index.allFacts().map((fact) => `${fact.id} ${fact.text}`),
    evidence: QUESTIONS.map((question) => index.retrieve(question, 5).map((e) => `${e.factId} ${e.score.toFixed(12)}`)),
  };
}

describe.each(DRIVERS)('an index kept on disk for the next start (%s)', (driver) => {
  const handle = useTestStore(driver);
  const files = tempFiles({
    'v1.jsonl': jsonl(HANDBOOK_FACTS),
    'gym.jsonl': jsonl([{ id: 'HB-99', text: 'The gym on level 3 opens at 6 am on weekdays.', source: 'handbook#gym' }]),
  });
  const dir = mkdtempSync(join(tmpdir(), 'candor-snapshots-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const skipped: string[] = [];

  /** A replica's index cache as `candor serve` sets it up, keeping its indexes in `dir`. */
  function replica(db: Db): KnowledgeIndexCache {
    const cache = new KnowledgeIndexCache(db, { inlineFacts: 0 });
    cache.serveWhileBuilding({ maxWaitMs: 60_000, snapshotDir: dir, snapshotSkipped: (kb, reason) => skipped.push(`${kb}: ${reason}`) });
    return cache;
  }
  const segmentFiles = () =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.seg'))
      .sort();

  it('a restarted replica loads the kept index instead of indexing the facts again, and answers the same', async () => {
    const db = handle.store.db;
    await ingestPaths(db, [files.path('v1.jsonl')], { kb: 'kept' });
    const first = replica(db);
    const built = await first.get('kept');
    await first.snapshotsSaved();
    const stored = segmentFiles();
    expect(stored).toHaveLength(1);
    expect(built.segments[0]?.storedIn).toBe(stored[0]); // written by the worker that built it

    const restarted = await replica(db).get('kept');
    expect(restarted.segments[0]?.storedIn).toBe(stored[0]);
    expect(answersOf(restarted)).toEqual(answersOf(built));
    expect(skipped).toEqual([]);
  });

  it('a version stored while the replica was down is the kept index plus a segment; a retirement is kept as a deletion', async () => {
    const db = handle.store.db;
    await ingestPaths(db, [files.path('gym.jsonl')], { kb: 'kept' });
    const [kept] = segmentFiles();
    const cache = replica(db);
    const updated = await cache.get('kept');
    expect(updated.version).toBe(2);
    expect(updated.segments.map((s) => s.storedIn)[0]).toBe(kept);
    expect(updated.segments).toHaveLength(2);
    await retireFact(db, updated.allFacts()[0]!.id, 'cli:dana');
    await cache.get('kept'); // serving: version 2 answers while version 3 is built
    await cache.built(['kept'], 60_000);
    const retired = await cache.get('kept');
    expect(retired.version).toBe(3);
    await cache.snapshotsSaved();
    const restarted = await replica(db).get('kept');
    expect(restarted.version).toBe(3);
    expect(restarted.bm25.deletedCount).toBe(1);
    expect(answersOf(restarted)).toEqual(answersOf(retired));
    expect(answersOf(restarted)).toEqual(answersOf(await new KnowledgeIndexCache(db).get('kept')));
    expect(skipped).toEqual([]);
  });

  it('a damaged snapshot, or one newer than the store, is not trusted: the index is built from the store and kept again', async () => {
    const db = handle.store.db;
    const truth = answersOf(await new KnowledgeIndexCache(db).get('kept'));
    const [damaged] = segmentFiles();
    const bytes = readFileSync(join(dir, damaged!));
    bytes[bytes.length - 10] = bytes[bytes.length - 10]! ^ 0xff;
    writeFileSync(join(dir, damaged!), bytes);
    const rebuilt = replica(db);
    expect(answersOf(await rebuilt.get('kept'))).toEqual(truth);
    expect(skipped.pop()).toMatch(/^kept: its segment kb\d+-[\w-]+\.seg is damaged: its checksum differs$/);
    await rebuilt.snapshotsSaved();
    expect(segmentFiles()).not.toContain(damaged);

    const manifest = readdirSync(dir).find((file) => file.endsWith('.json'))!;
    const saved = JSON.parse(readFileSync(join(dir, manifest), 'utf8')) as { version: number };
    writeFileSync(join(dir, manifest), JSON.stringify({ ...saved, version: 99 }));
    expect(answersOf(await replica(db).get('kept'))).toEqual(truth);
    expect(skipped.pop()).toBe("kept: it is of version 99, newer than the store's 3");
    writeFileSync(join(dir, manifest), '{"format":');
    expect(answersOf(await replica(db).get('kept'))).toEqual(truth);
    expect(skipped.pop()).toBe('kept: its manifest cannot be read');
  });

  it('a snapshot from another database (the same KB id and version, other facts) is not trusted', async () => {
    const other = await createTestStore(driver);
    try {
      const { db } = other.store;
      const cross = mkdtempSync(join(tmpdir(), 'candor-snapshots-cross-'));
      const cache = (on: Db) => {
        const made = new KnowledgeIndexCache(on, { inlineFacts: 0 });
        made.serveWhileBuilding({
          maxWaitMs: 60_000,
          snapshotDir: cross,
          snapshotSkipped: (kb, reason) => skipped.push(`${kb}: ${reason}`),
        });
        return made;
      };
      await ingestPaths(handle.store.db, [files.path('v1.jsonl')], { kb: 'twin' });
      const [twinId] = await handle.store.db.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.name, 'twin'));
      // KBs before it, so that its id is the same in the other database.
      for (let pad = 1; pad < twinId!.id; pad++) await ingestPaths(db, [files.path('gym.jsonl')], { kb: `pad-${pad}` });
      await ingestPaths(db, [files.path('gym.jsonl')], { kb: 'twin' });
      const first = cache(handle.store.db);
      const original = await first.get('twin');
      await first.snapshotsSaved();
      const twin = await cache(db).get('twin');
      expect(twin.kbId).toBe(original.kbId);
      expect(twin.version).toBe(original.version);
      expect(twin.allFacts().map((f) => f.text)).toEqual(['The gym on level 3 opens at 6 am on weekdays.']);
      expect(skipped.pop()).toBe('twin: it was built from another database or history');
      rmSync(cross, { recursive: true, force: true });
    } finally {
      await other.dispose();
    }
  });

  it('a kept index keeps when its first expert answer falls due, and is not used after', async () => {
    const db = handle.store.db;
    const dir2 = mkdtempSync(join(tmpdir(), 'candor-snapshots-due-'));
    const confirmed = new Date('2026-11-01T00:00:00Z');
    let now = confirmed.getTime() + 86_400_000;
    const cache = () => {
      const made = new KnowledgeIndexCache(db, { inlineFacts: 0, expertDays: () => 30, now: () => now });
      made.serveWhileBuilding({ maxWaitMs: 60_000, snapshotDir: dir2, snapshotSkipped: (kb, reason) => skipped.push(`${kb}: ${reason}`) });
      return made;
    };
    await ingestPaths(db, [files.path('v1.jsonl')], { kb: 'due' });
    await addExpertFact(db, {
      kb: 'due',
      text: 'Visitors sign in at the front desk.',
      question: 'visitors',
      expert: 'cli:dana',
      name: 'Dana',
      at: confirmed,
    });
    const first = cache();
    const built = await first.get('due');
    await first.snapshotsSaved();
    const due = confirmed.getTime() + 30 * 86_400_000;
    expect(built.expiresAt).toBe(due);
    const restarted = await cache().get('due');
    expect(restarted.segments[0]?.storedIn).toBe(built.segments[0]?.storedIn); // loaded, not rebuilt
    expect(restarted.expiresAt).toBe(due);
    now = due + 1;
    const later = await cache().get('due');
    expect(later.allFacts().some((f) => f.text.startsWith('Visitors'))).toBe(false);
    expect(skipped.pop()).toBe('due: an expert answer in it is due for re-confirmation');
    rmSync(dir2, { recursive: true, force: true });
  });
});
