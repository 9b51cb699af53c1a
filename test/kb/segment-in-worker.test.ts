import { describe, expect, it } from 'vitest';

import { Bm25Index, DEFAULT_BM25_PARAMS } from '../../src/core/retrieval/bm25-index.js';
import type { StoredFact } from '../../src/kb/knowledge-index.js';
import { buildSegment } from '../../src/kb/segment-build.js';
import { buildSegmentInWorker } from '../../src/kb/segment-in-worker.js';

const TOPICS = ['leave', 'parking', 'laptops', 'expenses', 'canteen'];

function fact(i: number): StoredFact {
  return {
    id: i + 1,
    externalId: null,
    text: `Fact ${i} about ${TOPICS[i % 5]} number ${i % 97} and rule ${i % 13} (ADR-${i % 50}).`,
    heading: `Section ${i % 31}`,
    documentPath: `hr/${TOPICS[i % 5]}.md`,
    source: 'hr',
    passage: `hr#${i % 31}`,
    confidence: 1,
  };
}

describe('a segment built in a worker thread', () => {
  const rows = Array.from({ length: 5_000 }, (_, i) => fact(i));

  it('is the segment built here: same hits, scores, terms and document frequencies', async () => {
    const pause = () => new Promise<void>((resolve) => setImmediate(resolve));
    const inWorker = await buildSegmentInWorker(rows, { pause, params: DEFAULT_BM25_PARAMS });
    const here = await buildSegment(rows, { pause });
    expect(inWorker.facts.size).toBe(rows.length);
    const [a, b] = [Bm25Index.of([inWorker.bm25]), Bm25Index.of([here.bm25])];
    for (const question of ['parking rule 5', 'leave number 12', 'section 7 expenses', 'ADR-7', 'nothing here']) {
      expect(a.search(question, 20)).toEqual(b.search(question, 20));
      expect(a.df('parking')).toBe(b.df('parking'));
    }
    expect([...a.termsOf(77)]).toEqual([...b.termsOf(77)]);
  });

  it('fails the build, with the reason, when the worker cannot index a fact', async () => {
    const broken = [fact(1), { ...fact(2), text: null as unknown as string }];
    await expect(buildSegmentInWorker(broken, { pause: () => Promise.resolve(), params: DEFAULT_BM25_PARAMS })).rejects.toThrow(
      /building an index segment failed/,
    );
  });
});
