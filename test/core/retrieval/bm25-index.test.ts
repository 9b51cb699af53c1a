import { describe, expect, it } from 'vitest';

import { Bm25Index } from '../../../src/core/retrieval/bm25-index.js';

const FACTS = [
  { key: 10, text: 'MediShield Life covers large hospital bills.' },
  { key: 20, text: 'Premiums are paid from MediSave.' },
  { key: 30, text: 'Claims for hospital bills are filed by the hospital.' },
];

describe('Bm25Index', () => {
  it('ranks the fact holding the rarest matching terms first', () => {
    const index = new Bm25Index(FACTS);
    expect(index.search('How are premiums paid?', 3).map((h) => h.key)).toEqual([20]);
    expect(index.search('hospital bills claims', 3).map((h) => h.key)).toEqual([30, 10]);
  });
  it('normalises to 1 for a fact holding every query term at average length, and never above', () => {
    const index = new Bm25Index(FACTS);
    for (const hit of index.search('hospital bills claims', 3)) expect(hit.normalised).toBeLessThanOrEqual(1);
    expect(index.search('premiums medisave', 1)[0]?.normalised).toBeGreaterThan(0.9);
  });
  it('scores unknown query terms into the denominator, lowering similarity', () => {
    const index = new Bm25Index(FACTS);
    const known = index.search('premiums medisave', 1)[0]?.normalised ?? 0;
    const mixed = index.search('premiums medisave zebra', 1)[0]?.normalised ?? 0;
    expect(mixed).toBeLessThan(known);
  });
  it('excludes facts and their document frequencies (leave-one-out)', () => {
    const index = new Bm25Index(FACTS);
    expect(index.df('hospital')).toBe(2);
    expect(index.df('hospital', new Set([30]))).toBe(1);
    expect(index.search('hospital bills claims', 3, new Set([30])).map((h) => h.key)).toEqual([10]);
    expect(index.idf('hospital', new Set([30]))).toBeGreaterThan(index.idf('hospital'));
  });
  it('indexes tags without counting them towards length', () => {
    const index = new Bm25Index([{ key: 1, text: 'See the record.', tags: ['#adr0050'] }]);
    expect(index.df('#adr0050')).toBe(1);
    expect(index.termsOf(1).has('#adr0050')).toBe(true);
  });
  it('returns nothing for a question with no content terms', () => {
    expect(new Bm25Index(FACTS).search('how is it?', 3)).toEqual([]);
  });
});
