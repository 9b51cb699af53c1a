import { describe, expect, it } from 'vitest';

import { mulberry32 } from '../../../src/core/agreement/seeded-random.js';
import { flaggingConfusion, flaggingFigures, mannWhitneyAuc, rate, type JudgedAnswer } from '../../../src/core/eval/flagging-figures.js';

/** The definition, pair by pair: a win counts 1, a tie ½. */
function pairwiseAuc(pos: readonly number[], neg: readonly number[]): number {
  let wins = 0;
  for (const a of pos) for (const b of neg) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

describe('mannWhitneyAuc', () => {
  it('is 1 for perfect separation, 0 reversed, ½ when every score ties, NaN without one of the groups', () => {
    expect(mannWhitneyAuc([0.9, 0.8], [0.1, 0.2, 0.3])).toBe(1);
    expect(mannWhitneyAuc([0.1], [0.5, 0.9])).toBe(0);
    expect(mannWhitneyAuc([1, 1], [1, 1, 1])).toBe(0.5);
    expect(mannWhitneyAuc([], [0.2])).toBeNaN();
    expect(mannWhitneyAuc([0.2], [])).toBeNaN();
  });

  it('counts ties as one half: positives {1, 0.5}, negatives {0.5, 0} → (1 + 1 + 0.5 + 1) / 4', () => {
    expect(mannWhitneyAuc([1, 0.5], [0.5, 0])).toBe(0.875);
  });

  it('equals the pairwise definition on random scores with many ties', () => {
    const random = mulberry32(7);
    for (let trial = 0; trial < 20; trial++) {
      const draw = (n: number) => Array.from({ length: n }, () => Math.round(random() * 10) / 10);
      const pos = draw(1 + Math.floor(random() * 30));
      const neg = draw(1 + Math.floor(random() * 30));
      expect(mannWhitneyAuc(pos, neg)).toBeCloseTo(pairwiseAuc(pos, neg), 12);
    }
  });
});

describe('rate', () => {
  it('is the share, NaN of nothing', () => {
    expect(rate(1, 4)).toBe(0.25);
    expect(rate(0, 0)).toBeNaN();
  });
});

const item = (supported: boolean, passed: boolean, score: number): JudgedAnswer => ({ supported, passed, score });
const ITEMS = [
  item(true, true, 0.9),
  item(true, true, 0.8),
  item(true, false, 0.3),
  item(false, false, 0.1),
  item(false, false, 0.2),
  item(false, true, 0.7),
  item(false, false, 0.3),
];

describe('flaggingFigures', () => {
  it('counts the confusion matrix and the two rates, with the AUC of the score', () => {
    expect(flaggingConfusion(ITEMS)).toEqual({ supported: { passed: 2, flagged: 1 }, unsupported: { passed: 1, flagged: 3 } });
    const f = flaggingFigures(ITEMS, { iterations: 200 });
    expect(f.labelled).toBe(7);
    expect(f.unsupportedFlagged.estimate).toBe(0.75);
    expect(f.supportedPassed.estimate).toBeCloseTo(2 / 3, 12);
    expect(f.auc.estimate).toBeCloseTo(pairwiseAuc([0.9, 0.8, 0.3], [0.1, 0.2, 0.7, 0.3]), 12);
    for (const e of [f.unsupportedFlagged, f.supportedPassed, f.auc]) {
      expect(e.low).not.toBeNull();
      expect(e.low!).toBeLessThanOrEqual(e.estimate!);
      expect(e.high!).toBeGreaterThanOrEqual(e.estimate!);
    }
  });

  it('is reproducible: the same seed gives the same intervals', () => {
    expect(flaggingFigures(ITEMS, { seed: 3, iterations: 300 })).toEqual(flaggingFigures(ITEMS, { seed: 3, iterations: 300 }));
  });

  it('gives null, not NaN, for a figure a class is missing for', () => {
    const f = flaggingFigures([item(false, false, 0), item(false, true, 1)], { iterations: 50 });
    expect(f.unsupportedFlagged.estimate).toBe(0.5);
    expect(f.supportedPassed).toEqual({ estimate: null, low: null, high: null });
    expect(f.auc).toEqual({ estimate: null, low: null, high: null });
  });
});
