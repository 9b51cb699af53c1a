import { describe, expect, it } from 'vitest';

import { DEFAULT_BM25_PARAMS } from '../../src/core/retrieval/bm25-index.js';
import { Bm25Segment } from '../../src/core/retrieval/bm25-segment.js';
import { CollectedFacts } from '../../src/kb/fact-segment.js';
import type { StoredFact } from '../../src/kb/fact-table.js';
import { indexable } from '../../src/kb/segment-build.js';
import { readSegmentFile, segmentFileBytes } from '../../src/kb/segment-file.js';

function fact(i: number): StoredFact {
  return {
    id: 10 + i * 3,
    externalId: i % 3 === 0 ? null : `F-${i}`,
    text: i % 7 === 0 ? `Le congé annuel est de ${i} jours — 年假 ${i} 天.` : `Fact ${i} about parking rule ${i % 13}.`,
    heading: i % 5 === 0 ? null : `Section ${Math.floor(i / 4)}`,
    documentPath: `hr/doc-${Math.floor(i / 50)}.md`,
    source: i % 11 === 0 ? 'expert:cli:dana' : 'hr',
    passage: i % 9 === 0 ? null : `hr#${Math.floor(i / 4)}`,
    confidence: i % 2 === 0 ? 1 : 0.75,
    url: i % 4 === 0 ? null : `https://intranet.example.com/hr/${Math.floor(i / 50)}`,
    title: 'HR handbook',
    alias: i % 11 === 0 ? `question ${i}` : null,
  };
}

function stored(rows: readonly StoredFact[]) {
  const facts = CollectedFacts.of(rows).seal();
  const bm25 = Bm25Segment.of(rows.map(indexable), DEFAULT_BM25_PARAMS);
  return { facts, bm25, file: Buffer.concat(segmentFileBytes({ kbId: 7, facts, arrays: bm25.arrays })) };
}

describe('a segment file', () => {
  it('gives back every fact, its passage links, experts and the BM25 arrays — 60,000 runs of values included', async () => {
    const rows = Array.from({ length: 240_000 }, (_, i) => fact(i));
    const { facts, bm25, file } = stored(rows);
    const read = await readSegmentFile(file, 7);
    if ('damaged' in read) throw new Error(read.damaged);
    expect(read.facts.size).toBe(rows.length);
    for (const i of [0, 1, 7, 9, 11, 123_457, 239_999]) expect(read.facts.table.at(i)).toEqual(facts.table.at(i));
    expect(read.facts.table.at(7)).toEqual({ ...fact(7) });
    expect([...read.facts.expertKeys]).toEqual([...facts.expertKeys]);
    const gone = new Set<number>();
    for (const i of [0, 5, 8, 9, 100_001]) expect(read.facts.hasEarlierOfPassage(i, gone)).toBe(facts.hasEarlierOfPassage(i, gone));
    expect(read.facts.holdsPassage('hr#12', gone)).toBe(true);
    const again = new Bm25Segment(read.arrays);
    expect(again.termsAt(77)).toEqual(bm25.termsAt(77));
    expect(again.positionOf(10 + 5 * 3)).toBe(5);
  }, 60_000);

  it('is not trusted when it is another KB’s, another file, truncated or changed', async () => {
    const { file } = stored(Array.from({ length: 50 }, (_, i) => fact(i)));
    expect(await readSegmentFile(file, 8)).toEqual({ damaged: 'it belongs to KB 7' });
    expect(await readSegmentFile(Buffer.from('{"not":"a segment"}'), 7)).toEqual({ damaged: 'not a segment file' });
    expect(await readSegmentFile(file.subarray(0, file.length - 3), 7)).toEqual({ damaged: 'it is truncated' });
    const changed = Buffer.from(file);
    changed[changed.length - 40] = changed[changed.length - 40]! ^ 1;
    expect(await readSegmentFile(changed, 7)).toEqual({ damaged: 'its checksum differs' });
  });
});
