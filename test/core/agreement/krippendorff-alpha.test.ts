import { describe, expect, it } from 'vitest';

import { krippendorffAlpha } from '../../../src/core/agreement/index.js';

// Source: K. Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability",
// Annenberg School for Communication, University of Pennsylvania,
// https://repository.upenn.edu/asc_papers/43.
// Example "nominal data, any number of observers, missing data" (4 observers x
// 12 units, values 1-5): alpha nominal = 0.743; the paper reports the same data
// treated as ordinal = 0.815 and interval = 0.849 (published to 3 decimals). The same matrix is the "C" data in
// R DescTools::KrippAlpha (formerly irr::kripp.alpha) examples.
const _ = null;
const observers = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _], // A
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3], // B
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _], // C
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _], // D
];

describe('krippendorffAlpha: published examples (Krippendorff 2011)', () => {
  it('nominal, 4 observers, missing data: 0.743', () => {
    const alpha = krippendorffAlpha(observers, 'nominal');
    expect(alpha).toBeCloseTo(0.743, 3);
    // Worked by hand from the coincidence matrix: n = 40 pairable values, marginals
    // n_c = 9, 13, 10, 5, 3 (sum of squares 384), matching pairs sum_c o_cc = 32, so
    // alpha = 1 - (n-1)(n - 32) / (n^2 - 384) = 1 - 39*8/1216 = 0.743421.
    expect(alpha).toBeCloseTo(1 - (39 * 8) / 1216, 12);
  });

  it('ordinal: 0.815', () => {
    expect(krippendorffAlpha(observers, 'ordinal')).toBeCloseTo(0.815, 3);
  });

  it('interval: 0.849', () => {
    expect(krippendorffAlpha(observers, 'interval')).toBeCloseTo(0.849, 3);
  });

  // Same paper, example "binary or dichotomous data, two observers, no missing data":
  // 10 units, alpha = 1 - (n-1) o_01 / (n_0 n_1) = 1 - 19 * 4 / (14 * 6) = 0.095.
  it('binary, two observers: 0.095', () => {
    const a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    const b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
    const alpha = krippendorffAlpha([a, b], 'nominal');
    expect(alpha).toBeCloseTo(0.095, 3);
    expect(alpha).toBeCloseTo(1 - (19 * 4) / (14 * 6), 12);
  });
});

describe('krippendorffAlpha: behaviour', () => {
  it('drops units with fewer than 2 values (unit 12 above has one value)', () => {
    const withoutUnit12 = observers.map((row) => row.slice(0, 11));
    for (const level of ['nominal', 'ordinal', 'interval'] as const) {
      expect(krippendorffAlpha(withoutUnit12, level)).toBeCloseTo(krippendorffAlpha(observers, level), 12);
    }
  });

  it('ordinal alpha depends only on rank order; interval alpha does not', () => {
    const stretch = (v: number | null): number | null => (v === null ? null : 10 ** v);
    const stretched = observers.map((row) => row.map(stretch));
    expect(krippendorffAlpha(stretched, 'ordinal')).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(stretched, 'nominal')).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(stretched, 'interval')).not.toBeCloseTo(0.849, 2);
  });

  it('accepts string values with an explicit ordinal order', () => {
    const names = ['one', 'two', 'three', 'four', 'five'];
    const named = observers.map((row) => row.map((v) => (v === null ? null : names[v - 1]!)));
    expect(krippendorffAlpha(named, 'ordinal', { categories: names })).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(named, 'nominal')).toBeCloseTo(0.743, 3);
    expect(() => krippendorffAlpha(named, 'interval')).toThrow(TypeError);
    expect(() => krippendorffAlpha(named, 'ordinal')).toThrow(TypeError);
  });

  it('returns NaN without pairable units or without variation, 1 for perfect agreement', () => {
    expect(
      krippendorffAlpha(
        [
          [1, _],
          [_, 2],
        ],
        'nominal',
      ),
    ).toBeNaN();
    expect(
      krippendorffAlpha(
        [
          [3, 3],
          [3, 3],
        ],
        'interval',
      ),
    ).toBeNaN();
    expect(
      krippendorffAlpha(
        [
          [1, 2, 3],
          [1, 2, 3],
          [_, 2, 3],
        ],
        'interval',
      ),
    ).toBeCloseTo(1, 12);
  });

  it('rows may have different lengths (shorter rows are missing at the end)', () => {
    const ragged = observers.map((row) => {
      let end = row.length;
      while (end > 0 && row[end - 1] === null) end--;
      return row.slice(0, end);
    });
    expect(krippendorffAlpha(ragged, 'nominal')).toBeCloseTo(0.743421, 6);
  });
});
