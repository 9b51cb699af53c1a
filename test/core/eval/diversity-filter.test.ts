import { describe, expect, it } from 'vitest';

import { diversityFilter } from '../../../src/core/eval/diversity-filter.js';
import { sparseCosine, tfidfVectors, trigramVectors } from '../../../src/core/eval/text-vectors.js';

const DEFAULTS = { keywordThreshold: 0.75, semanticThreshold: 0.9, lexicalThreshold: 0.8 };

describe('text vectors', () => {
  it('TF-IDF: the same question reworded scores high, a different one on the same subject low', () => {
    const [a, b, c] = tfidfVectors([
      'How much does a staff parking permit cost per month?',
      'What is the monthly cost of a staff parking permit?',
      'When are staff parking permits renewed?',
    ]);
    expect(sparseCosine(a!, b!)).toBeGreaterThan(0.7);
    expect(sparseCosine(a!, c!)).toBeLessThan(sparseCosine(a!, b!) - 0.2);
    expect(sparseCosine(a!, a!)).toBeCloseTo(1, 6);
  });

  it('trigrams see word forms TF-IDF keeps apart', () => {
    const texts = ['Staff submission deadline for expense claims?', 'When must staff submit expense claims?'];
    const [t1, t2] = tfidfVectors(texts);
    const [g1, g2] = trigramVectors(texts);
    expect(sparseCosine(g1!, g2!)).toBeGreaterThan(sparseCosine(t1!, t2!));
  });
});

describe('diversityFilter', () => {
  it('keeps the first of near-duplicates, names what it removed and why, and keeps distinct questions', () => {
    const questions = [
      'Where is the fire assembly point?',
      'How do I submit an expense claim?',
      'Where is the fire assembly point located?',
      'What time does lunch end?',
    ];
    const result = diversityFilter(questions, DEFAULTS);
    expect(result.kept).toEqual([0, 1, 3]);
    expect(result.removed).toEqual([{ index: 2, by: 'keyword', duplicateOf: 0, similarity: expect.any(Number) }]);
    expect(result.semantic).toBe('lexical');
  });

  it('uses embeddings for the semantic pass when given, with its own threshold', () => {
    const e = (x: number, y: number) => Float32Array.from([x, y].map((v) => v / Math.hypot(x, y)));
    const questions = ['How many days of leave do I get?', 'What is my vacation allowance?', 'Where is the canteen?'];
    const result = diversityFilter(questions, { ...DEFAULTS, embeddings: [e(1, 0.1), e(1, 0.12), e(0.1, 1)] });
    expect(result.kept).toEqual([0, 2]);
    expect(result.removed).toEqual([expect.objectContaining({ index: 1, by: 'semantic', duplicateOf: 0 })]);
    expect(result.semantic).toBe('embeddings');
    expect(() => diversityFilter(questions, { ...DEFAULTS, embeddings: [e(1, 0)] })).toThrow(RangeError);
  });

  it('threshold 1 keeps everything but exact copies; no questions, no work', () => {
    expect(
      diversityFilter(['a parking question?', 'a parking question?', 'another one about leave?'], {
        keywordThreshold: 1.01,
        semanticThreshold: 1.01,
        lexicalThreshold: 1.01,
      }).kept,
    ).toEqual([0, 1, 2]);
    expect(diversityFilter([], DEFAULTS)).toEqual({ kept: [], removed: [], semantic: 'lexical' });
  });
});
