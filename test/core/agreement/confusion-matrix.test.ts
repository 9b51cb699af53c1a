import { describe, expect, it } from 'vitest';

import { confusionMatrix, perClassMetrics } from '../../../src/core/agreement/index.js';

describe('confusionMatrix and perClassMetrics: hand-worked example', () => {
  // truth = human majority, predicted = LLM judge, 12 items:
  const truth = [
    'correct',
    'correct',
    'correct',
    'correct',
    'correct',
    'partial',
    'partial',
    'partial',
    'wrong',
    'wrong',
    'wrong',
    'wrong',
  ];
  const judge = [
    'correct',
    'correct',
    'correct',
    'partial',
    'wrong',
    'partial',
    'correct',
    'correct',
    'wrong',
    'wrong',
    'partial',
    'partial',
  ];
  const categories = ['correct', 'partial', 'wrong', 'refused'];

  it('tabulates rows = truth, columns = predicted', () => {
    expect(confusionMatrix(truth, judge, categories)).toEqual({
      categories,
      matrix: [
        [3, 1, 1, 0],
        [2, 1, 0, 0],
        [0, 2, 2, 0],
        [0, 0, 0, 0],
      ],
    });
  });

  it('computes precision, recall and F1 per class', () => {
    // correct: TP 3, predicted 5, actual 5 -> P 3/5, R 3/5, F1 6/(6+2+2) = .6
    // partial: TP 1, predicted 4, actual 3 -> P 1/4, R 1/3, F1 2/(2+3+2) = 2/7
    // wrong:   TP 2, predicted 3, actual 4 -> P 2/3, R 1/2, F1 4/(4+1+2) = 4/7
    // refused: never in truth nor predicted -> all null
    const metrics = perClassMetrics(confusionMatrix(truth, judge, categories));
    expect(metrics.map((m) => m.category)).toEqual(categories);
    expect(metrics.map((m) => m.support)).toEqual([5, 3, 4, 0]);
    const [correct, partial, wrong, refused] = metrics;
    expect(correct!.precision).toBeCloseTo(0.6, 12);
    expect(correct!.recall).toBeCloseTo(0.6, 12);
    expect(correct!.f1).toBeCloseTo(0.6, 12);
    expect(partial!.precision).toBeCloseTo(0.25, 12);
    expect(partial!.recall).toBeCloseTo(1 / 3, 12);
    expect(partial!.f1).toBeCloseTo(2 / 7, 12);
    expect(wrong!.precision).toBeCloseTo(2 / 3, 12);
    expect(wrong!.recall).toBeCloseTo(0.5, 12);
    expect(wrong!.f1).toBeCloseTo(4 / 7, 12);
    // F1 equals the harmonic mean of precision and recall when both exist
    expect(wrong!.f1).toBeCloseTo((2 * (2 / 3) * 0.5) / (2 / 3 + 0.5), 12);
    expect(refused).toEqual({ category: 'refused', support: 0, precision: null, recall: null, f1: null });
  });

  it('gives null precision but F1 = 0 for a class present in truth that is never predicted', () => {
    const metrics = perClassMetrics(confusionMatrix(['a', 'a', 'b'], ['a', 'a', 'a']));
    expect(metrics[0]).toEqual({ category: 'a', support: 2, precision: 2 / 3, recall: 1, f1: 0.8 });
    expect(metrics[1]).toEqual({ category: 'b', support: 1, precision: null, recall: 0, f1: 0 });
  });

  it('infers categories (numbers ascending), skips missing pairs, rejects unknown labels', () => {
    expect(confusionMatrix([3, 1, null, 2, 1], [3, 2, 1, undefined, 1])).toEqual({
      categories: [1, 2, 3],
      matrix: [
        [1, 1, 0],
        [0, 0, 0],
        [0, 0, 1],
      ],
    });
    expect(() => confusionMatrix(['a'], ['b'], ['a'])).toThrow(RangeError);
    expect(() => confusionMatrix(['a'], [], ['a'])).toThrow(RangeError);
    expect(() => confusionMatrix(['a'], ['a'], ['a', 'a'])).toThrow(/duplicate/);
  });
});
