import { describe, expect, it } from 'vitest';

import { fleissCounts, fleissKappa } from '../../../src/core/agreement/index.js';

describe('fleissKappa: Fleiss (1971) example', () => {
  // Source: J. L. Fleiss (1971), "Measuring nominal scale agreement among many raters",
  // Psychological Bulletin 76(5), 378-382, Table 1: 30 patients, 6 psychiatrists per
  // patient, 5 diagnostic categories (1 depression, 2 personality disorder,
  // 3 schizophrenia, 4 neurosis, 5 other); published kappa = .430.
  // The paper prints only per-patient category counts. The rater-level matrix below
  // is the `diagnoses` data set distributed with the R package irr (Gamer et al.),
  // documented as the Fleiss (1971) data; irr::kappam.fleiss gives 0.4302445 on it.
  // It was taken from that data set, not transcribed from the paper itself.
  const diagnoses = [
    [4, 4, 4, 4, 4, 4],
    [2, 2, 2, 5, 5, 5],
    [2, 3, 3, 3, 3, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3],
    [3, 3, 3, 3, 5, 5],
    [1, 1, 3, 3, 3, 4],
    [1, 1, 4, 4, 4, 4],
    [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4],
    [1, 2, 4, 4, 4, 4],
    [2, 2, 2, 3, 3, 3],
    [1, 4, 4, 4, 4, 4],
    [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5],
    [1, 1, 1, 4, 5, 5],
    [1, 1, 1, 1, 1, 2],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5],
    [2, 4, 4, 4, 4, 4],
    [2, 2, 4, 5, 5, 5],
    [1, 1, 4, 4, 4, 4],
    [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4],
    [1, 1, 1, 1, 5, 5],
    [2, 2, 4, 4, 4, 4],
    [1, 3, 3, 3, 3, 3],
    [5, 5, 5, 5, 5, 5],
  ];

  it('reproduces kappa = .430 from the 30 x 6 ratings', () => {
    const { categories, counts } = fleissCounts(diagnoses);
    expect(categories).toEqual([1, 2, 3, 4, 5]);
    expect(counts).toHaveLength(30);
    // Category totals 26, 26, 30, 55, 43 of 180 ratings: p_j = .144, .144, .167, .306, .239.
    const totals = [0, 1, 2, 3, 4].map((j) => counts.reduce((s, row) => s + row[j]!, 0));
    expect(totals).toEqual([26, 26, 30, 55, 43]);
    const kappa = fleissKappa(counts);
    expect(kappa).toBeCloseTo(0.43, 3);
    expect(kappa).toBeCloseTo(0.4302445, 7);
  });
});

describe('fleissKappa: Wikipedia example', () => {
  // Source: Wikipedia, "Fleiss' kappa", worked example (10 subjects, 14 raters,
  // 5 categories): P-bar = 0.378, P-bar_e = 0.213, kappa = 0.210. Also used by
  // statsmodels' test_inter_rater.py.
  const counts = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
  ];

  it('reproduces kappa = 0.210', () => {
    // Hand check: sum_i P_i = 3.780 -> P-bar = 0.378; p_j = 20,28,39,21,32 / 140 -> P-bar_e = 0.2128
    const pBar = counts.reduce((s, row) => s + (row.reduce((t, c) => t + c * c, 0) - 14) / (14 * 13), 0) / 10;
    const pE = [20, 28, 39, 21, 32].reduce((s, t) => s + (t / 140) ** 2, 0);
    expect(pBar).toBeCloseTo(0.378, 3);
    expect(pE).toBeCloseTo(0.213, 3);
    expect(fleissKappa(counts)).toBeCloseTo(0.21, 3);
    expect(fleissKappa(counts)).toBeCloseTo((pBar - pE) / (1 - pE), 12);
  });
});

describe('fleissKappa: behaviour', () => {
  it('builds counts from labels in the given category order, ignoring missing', () => {
    const { categories, counts } = fleissCounts(
      [
        ['yes', 'no', 'yes'],
        ['no', null, 'no'],
      ],
      ['no', 'yes', 'unsure'],
    );
    expect(categories).toEqual(['no', 'yes', 'unsure']);
    expect(counts).toEqual([
      [1, 2, 0],
      [2, 0, 0],
    ]);
    expect(() => fleissKappa(counts)).toThrow(/equal raters/);
  });

  it('returns 1 for perfect agreement, NaN when every rating is one category or no items', () => {
    expect(
      fleissKappa([
        [3, 0],
        [0, 3],
        [3, 0],
      ]),
    ).toBeCloseTo(1, 12);
    expect(
      fleissKappa([
        [3, 0],
        [3, 0],
      ]),
    ).toBeNaN();
    expect(fleissKappa([])).toBeNaN();
  });

  it("equals Scott's pi for two raters", () => {
    // Items (A,B): (x,x) (x,y) (y,y) (y,y): p_o = .75; pooled p_x = 3/8, p_y = 5/8;
    // p_e = 9/64 + 25/64 = 34/64; pi = (.75 - 34/64) / (1 - 34/64) = 14/30 = 0.4667
    const { counts } = fleissCounts([
      ['x', 'x'],
      ['x', 'y'],
      ['y', 'y'],
      ['y', 'y'],
    ]);
    expect(fleissKappa(counts)).toBeCloseTo(14 / 30, 12);
  });

  it('rejects fewer than 2 ratings and ragged category rows', () => {
    expect(() => fleissKappa([[1, 0]])).toThrow(RangeError);
    expect(() => fleissKappa([[1, 1], [2]])).toThrow(RangeError);
    expect(() => fleissCounts([['a']], ['b'])).toThrow(RangeError);
  });
});
