import { describe, expect, it } from 'vitest';

import { collectCategories, majorityLabel, percentAgreement } from '../../../src/core/agreement/index.js';

describe('percentAgreement', () => {
  it('is the share of agreeing pairs, skipping pairs with a missing label', () => {
    // pairs kept: (a,a) (b,c) (c,c) (1,1) -> 3/4
    expect(percentAgreement(['a', 'b', null, 'c', 1, 'x'], ['a', 'c', 'a', 'c', 1, undefined])).toBeCloseTo(0.75, 12);
    expect(percentAgreement([1], ['1'])).toBe(0);
  });

  it('is NaN without pairs and rejects unequal lengths', () => {
    expect(percentAgreement([null], ['a'])).toBeNaN();
    expect(percentAgreement([], [])).toBeNaN();
    expect(() => percentAgreement(['a'], [])).toThrow(RangeError);
  });
});

describe('majorityLabel', () => {
  it('returns the most frequent present label', () => {
    expect(majorityLabel(['pass', 'fail', 'pass', null, undefined])).toBe('pass');
    expect(majorityLabel([2, 3, 3, 2, 3])).toBe(3);
  });

  it('returns null on ties or without labels unless a tie-break decides', () => {
    expect(majorityLabel(['pass', 'fail'])).toBeNull();
    expect(majorityLabel([null, undefined])).toBeNull();
    expect(majorityLabel([])).toBeNull();
    expect(majorityLabel(['b', 'a', 'a', 'b', 'c'], (tied) => tied[0]!)).toBe('b');
    // e.g. conservative tie-break on an ordinal scale: take the lowest score
    expect(majorityLabel([4, 2, 2, 4], (tied) => Math.min(...(tied as number[])))).toBe(2);
    expect(majorityLabel(['x', 'y'], () => null)).toBeNull();
  });

  it('treats 1 and "1" as different labels', () => {
    expect(majorityLabel([1, '1', '1'])).toBe('1');
  });
});

describe('collectCategories', () => {
  it('orders numbers ascending, then strings', () => {
    expect(collectCategories(['b', 10, null], [2, 'a', undefined, 10])).toEqual([2, 10, 'a', 'b']);
  });
});
