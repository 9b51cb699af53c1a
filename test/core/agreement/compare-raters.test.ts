import { describe, expect, it } from 'vitest';

import { compareRaters } from '../../../src/core/agreement/compare-raters.js';

// Reference y y y y y y n n n n; rater y y y y y n n n n y (as in the agreement report's hand example).
const REF = ['y', 'y', 'y', 'y', 'y', 'y', 'n', 'n', 'n', 'n'];
const RATER = ['y', 'y', 'y', 'y', 'y', 'n', 'n', 'n', 'n', 'y'];

describe('compareRaters', () => {
  const result = compareRaters(REF, RATER, ['y', 'n'], { seed: 7, iterations: 500 });

  it('agreement, kappa and the confusion matrix match the hand computation', () => {
    // po = 0.8, pe = 0.6² + 0.4² = 0.52, kappa = 0.28 / 0.48
    expect(result.items).toBe(10);
    expect(result.percentAgreement).toBe(0.8);
    expect(result.cohensKappa).toBeCloseTo(0.5833, 4);
    expect(result.confusion).toEqual({
      categories: ['y', 'n'],
      matrix: [
        [5, 1],
        [1, 3],
      ],
    });
    expect(result.kappaCI.low).toBeLessThan(0.5833);
    expect(result.kappaCI.high).toBeGreaterThan(0.5833);
  });

  it('renaming the categories consistently changes no figure (so yes/no and correct/incorrect views agree)', () => {
    const rename = (l: string) => (l === 'y' ? 'correct' : 'incorrect');
    const renamed = compareRaters(REF.map(rename), RATER.map(rename), ['correct', 'incorrect'], { seed: 7, iterations: 500 });
    expect(renamed.cohensKappa).toBe(result.cohensKappa);
    expect(renamed.kappaCI).toEqual(result.kappaCI);
    expect(renamed.confusion.matrix).toEqual(result.confusion.matrix);
  });

  it('is null where undefined and refuses unpaired labels', () => {
    const empty = compareRaters([], [], ['y', 'n']);
    expect(empty.cohensKappa).toBeNull();
    expect(empty.percentAgreement).toBeNull();
    expect(() => compareRaters(['y'], [], ['y', 'n'])).toThrow(RangeError);
  });
});
