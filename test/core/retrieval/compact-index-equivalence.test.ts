import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { Bm25Index, DEFAULT_BM25_PARAMS, type Bm25Hit } from '../../../src/core/retrieval/bm25-index.js';
import { Bm25Segment } from '../../../src/core/retrieval/bm25-segment.js';
import { contentTerms } from '../../../src/core/text/tokenize.js';
import { indexOf, type BenchmarkSet } from '../../../src/eval/benchmarks/benchmark-set.js';
import { loadPolicyBench } from '../../../src/eval/benchmarks/policybench.js';
import { loadSquad2 } from '../../../src/eval/benchmarks/squad2.js';
import { indexable, type StoredFact } from '../../../src/kb/knowledge-index.js';
import { ReferenceBm25 } from './reference-bm25.js';

const EXAMPLES = join(import.meta.dirname, '../../../examples');
const SETS: readonly (() => BenchmarkSet)[] = [
  () => loadPolicyBench(join(EXAMPLES, 'policybench'), 'cpf'),
  () => loadPolicyBench(join(EXAMPLES, 'policybench'), 'ica'),
  () => loadSquad2(join(EXAMPLES, 'squad2')),
];

/** How two rankings differ (null: the same hits in the same order, with scores equal to 1e-9). */
function difference(actual: Bm25Hit[], expected: Bm25Hit[]): string | null {
  const keys = (hits: Bm25Hit[]) => hits.map((h) => h.key).join(',');
  if (keys(actual) !== keys(expected)) return `hits ${keys(actual)} instead of ${keys(expected)}`;
  for (const [i, hit] of actual.entries()) {
    const want = expected[i] as Bm25Hit;
    if (Math.abs(hit.raw - want.raw) >= 1e-9 || Math.abs(hit.normalised - want.normalised) >= 1e-9)
      return `fact ${hit.key} scored ${hit.raw}/${hit.normalised} instead of ${want.raw}/${want.normalised}`;
  }
  return null;
}

function expectSameHits(actual: Bm25Hit[], expected: Bm25Hit[], what: string): void {
  expect(difference(actual, expected), what).toBeNull();
}

/** Asks every question of the set of both indexes, with and without its facts, and expects no difference. */
function compareOnQuestions(set: BenchmarkSet, rows: readonly StoredFact[], compact: Bm25Index, reference: ReferenceBm25): void {
  const externalToKey = new Map(rows.map((row) => [row.externalId, row.id]));
  let compared = 0;
  const differences: string[] = [];
  for (const q of set.questions) {
    const leftOut = new Set(q.factIds.flatMap((id) => externalToKey.get(id) ?? []));
    for (const exclude of leftOut.size > 0 ? [new Set<number>(), leftOut] : [new Set<number>()]) {
      // The depths the ask path uses (the re-ranking pool) and a deep one, where ties and pruning show.
      for (const k of [20, 80]) {
        const hits = compact.search(q.question, k, exclude);
        const differs = difference(hits, reference.search(q.question, k, exclude));
        if (differs) differences.push(`${q.id} k=${k} left out ${exclude.size}: ${differs}`);
        for (const hit of hits.slice(0, 3)) {
          const terms = [...compact.termsOf(hit.key)].join(' ');
          if (terms !== [...reference.termsOf(hit.key)].join(' ')) differences.push(`${q.id}: terms of ${hit.key}`);
        }
      }
      for (const term of contentTerms(q.question)) {
        if (compact.df(term, exclude) !== reference.df(term, exclude) || compact.idf(term, exclude) !== reference.idf(term, exclude))
          differences.push(`${q.id}: df/idf of ${term}`);
      }
      compared += 1;
    }
  }
  expect(differences.slice(0, 5)).toEqual([]);
  expect(compared).toBeGreaterThan(set.questions.length);
}

describe('the compact index (typed arrays, MaxScore) against the term-at-a-time index it replaced', () => {
  it.each(SETS.map((load, i) => [['policybench cpf', 'policybench ica', 'squad2'][i] as string, load] as const))(
    '%s: every question, with its facts and left out — same hits, order, scores, df, idf and fact terms',
    (_name, load) => {
      const set = load();
      const rows = indexOf(set).allFacts();
      compareOnQuestions(set, rows, new Bm25Index(rows.map(indexable)), new ReferenceBm25(rows.map(indexable)));
    },
    120_000,
  );

  it.each(SETS.map((load, i) => [['policybench cpf', 'policybench ica', 'squad2'][i] as string, load] as const))(
    '%s in three segments with every seventh fact deleted — the same as one index of the live facts',
    (_name, load) => {
      const set = load();
      const rows = indexOf(set).allFacts();
      const third = Math.ceil(rows.length / 3);
      const parts = [rows.slice(0, third), rows.slice(third, 2 * third), rows.slice(2 * third)];
      // Deletions land in every segment: the first's before the others are added, the rest after (again the first's: no-ops).
      const deleted = rows.filter((_, i) => i % 7 === 3).map((row) => row.id);
      let segmented = new Bm25Index(parts[0]!.map(indexable));
      segmented = segmented.withChanges({
        add: Bm25Segment.of(parts[1]!.map(indexable), DEFAULT_BM25_PARAMS),
        remove: deleted.filter((key) => key <= parts[0]!.at(-1)!.id),
      });
      segmented = segmented.withChanges({ add: Bm25Segment.of(parts[2]!.map(indexable), DEFAULT_BM25_PARAMS) });
      segmented = segmented.withChanges({ remove: deleted });
      expect(segmented.segments).toHaveLength(3);
      const gone = new Set(deleted);
      const live = rows.filter((row) => !gone.has(row.id));
      expect(segmented.size).toBe(live.length);
      compareOnQuestions(set, live, segmented, new ReferenceBm25(live.map(indexable)));
      expect(segmented.termsOf(deleted[0]!).size).toBe(0);
    },
    120_000,
  );

  it('breaks ties as the old index did: by the first question term a fact holds, then store order', () => {
    // Facts 1 and 2 tie on score; fact 2 holds the question's first term, fact 1 only its second.
    const facts = [
      { key: 1, text: 'zebra crossing' },
      { key: 2, text: 'giraffe crossing' },
      { key: 3, text: 'giraffe zebra' },
      { key: 4, text: 'other words here' },
    ];
    const question = 'giraffe zebra';
    const compact = new Bm25Index(facts).search(question, 3);
    expectSameHits(compact, new ReferenceBm25(facts).search(question, 3), 'ties');
    expect(compact.map((h) => h.key)).toEqual([3, 2, 1]);
  });

  it('facts added in any key order are found by key (not only ascending store ids)', () => {
    const facts = [
      { key: 30, text: 'Premiums are paid from MediSave.' },
      { key: 10, text: 'MediShield Life covers large hospital bills.' },
      { key: 20, text: 'Claims for hospital bills are filed by the hospital.' },
    ];
    const compact = new Bm25Index(facts);
    expect(compact.termsOf(10).has('medishield')).toBe(true);
    expect(compact.df('hospital', new Set([20]))).toBe(1);
    expectSameHits(
      compact.search('hospital bills', 3, new Set([10])),
      new ReferenceBm25(facts).search('hospital bills', 3, new Set([10])),
      'unordered',
    );
  });
});
