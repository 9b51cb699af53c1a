import { describe, expect, it } from 'vitest';

import { figuresIn, inRange, rangeFit, rangesIn } from '../../../src/core/text/number-ranges.js';

const holds = (text: string, x: number) => rangesIn(text).some((r) => inRange(r, x));

describe('rangesIn', () => {
  it('reads ranges and bounds as tables and rules write them', () => {
    expect(holds('Age Next Birthday: 61 – 65', 63)).toBe(true);
    expect(holds('Age Next Birthday: 61 – 65', 66)).toBe(false);
    expect(holds('a fine of between $1,000 and $5,000', 2500)).toBe(true);
    expect(holds('Age: >90', 91)).toBe(true);
    expect(holds('Age: >90', 90)).toBe(false);
    expect(holds('Age: ≤ 20', 20)).toBe(true);
    expect(holds('76 and above', 80)).toBe(true);
    expect(holds('80 years old and below', 81)).toBe(false);
    expect(holds('bills above $10,000', 12_000)).toBe(true);
    expect(holds('bills above $10,000', 10_000)).toBe(false);
    expect(holds('who own more than one property', 2)).toBe(true);
    expect(holds('up to 60 days per policy year', 45)).toBe(true);
    expect(holds('at least 18 years of age', 17)).toBe(false);
    expect(holds('41 – 70', 41)).toBe(true);
  });

  it('does not take two numbers in prose for a range', () => {
    expect(rangesIn('Classes 2 and 3 may ride')).toEqual([]);
    expect(rangesIn('Class 3 since 2019')).toEqual([]);
  });
});

describe('figuresIn and rangeFit', () => {
  it('reads figures, not number words ("in one policy year" names no figure)', () => {
    expect(figuresIn('premium at age 63 in one policy year, bill of $12,500')).toEqual([63, 12_500]);
  });

  it('says whether a fact’s ranges hold a figure, miss it, or state none', () => {
    expect(rangeFit([63], 'Age: 61 – 65; Premium: $1,131')).toBe('holds');
    expect(rangeFit([95], 'Age: 81 – 90; Deductible: $2,000')).toBe('misses');
    expect(rangeFit([95], 'The deductible is paid once a year.')).toBe('none');
    expect(rangeFit([], 'Age: 81 – 90')).toBe('none');
  });
});
