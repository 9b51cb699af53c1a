import { describe, expect, it } from 'vitest';

import { cohensKappa, cohensKappaFromMatrix, percentAgreement } from '../../../src/core/agreement/index.js';

/** Expands a joint count table into two paired label lists (rater A = row, rater B = column). */
function expand(table: number[][], categories: (string | number)[]): { a: (string | number)[]; b: (string | number)[] } {
  const a: (string | number)[] = [];
  const b: (string | number)[] = [];
  table.forEach((row, i) =>
    row.forEach((count, j) => {
      for (let n = 0; n < count; n++) {
        a.push(categories[i]!);
        b.push(categories[j]!);
      }
    }),
  );
  return { a, b };
}

describe('cohensKappa: Cohen (1960) worked example', () => {
  // Source: J. Cohen (1960), "A coefficient of agreement for nominal scales",
  // Educational and Psychological Measurement 20(1), 37-46: the worked example
  // (Table 1): 200 items, 3 categories, p_o = .70, p_c = .41, kappa = .29/.59 = .492.
  // The joint table below is a RECONSTRUCTION from memory, not copied from the paper
  // (not available here). Its marginals (judge A .60/.30/.10, judge B .50/.30/.20)
  // and diagonal (.44/.20/.06) reproduce the published p_o = .70 and p_c = .41
  // exactly; the off-diagonal split may differ from the printed table, but kappa
  // depends only on the diagonal and the marginals, so the published p_o, p_c and
  // kappa are what this test pins down.
  const table = [
    [88, 14, 18],
    [10, 40, 10],
    [2, 6, 12],
  ];
  const { a, b } = expand(table, ['c1', 'c2', 'c3']);

  it('reproduces p_o = .70, p_c = .41 and kappa = .492', () => {
    expect(a).toHaveLength(200);
    expect(percentAgreement(a, b)).toBeCloseTo(0.7, 12);
    const rowP = [120 / 200, 60 / 200, 20 / 200];
    const colP = [100 / 200, 60 / 200, 40 / 200];
    expect(rowP[0]! * colP[0]! + rowP[1]! * colP[1]! + rowP[2]! * colP[2]!).toBeCloseTo(0.41, 12);

    const kappa = cohensKappa(a, b);
    expect(kappa).toBeCloseTo((0.7 - 0.41) / (1 - 0.41), 12);
    expect(Number(kappa.toFixed(3))).toBe(0.492);
    expect(cohensKappaFromMatrix(table)).toBeCloseTo(kappa, 12);
  });
});

describe('cohensKappa: weighted kappa', () => {
  // Hand-worked 3x3 example (rows = rater A, columns = rater B, ordinal 1 < 2 < 3), N = 20:
  //   [5 2 1]  row totals r = 8 7 5
  //   [1 4 2]  col totals c = 6 7 7
  //   [0 1 4]
  // Cells one step off the diagonal: 2+1+2+1 = 6 items; two steps off: 1+0 = 1 item.
  // Chance: sum over one-step cells of r_i*c_j = 8*7 + 7*6 + 7*7 + 5*7 = 182;
  //         two-step cells: 8*7 + 5*6 = 86. (Products are over N^2 = 400.)
  // Unweighted: p_o = 13/20 = .65, p_e = (48+49+35)/400 = .33, kappa = .32/.67 = 32/67 = .47761.
  // Linear (disagreement |i-j|): D_o = (6*1 + 1*2)/20 = .40, D_e = (182*1 + 86*2)/400 = .885,
  //   kappa = 1 - .40/.885 = 97/177 = .54802.
  // Quadratic (disagreement (i-j)^2): D_o = (6*1 + 1*4)/20 = .50, D_e = (182 + 86*4)/400 = 1.315,
  //   kappa = 1 - .50/1.315 = 163/263 = .61977.
  const table = [
    [5, 2, 1],
    [1, 4, 2],
    [0, 1, 4],
  ];
  const { a, b } = expand(table, [1, 2, 3]);

  it('matches the hand-computed unweighted, linear and quadratic values', () => {
    expect(cohensKappa(a, b)).toBeCloseTo(32 / 67, 12);
    expect(cohensKappa(a, b, { weights: 'linear' })).toBeCloseTo(97 / 177, 12);
    expect(cohensKappa(a, b, { weights: 'quadratic' })).toBeCloseTo(163 / 263, 12);
    expect(cohensKappaFromMatrix(table, 'linear')).toBeCloseTo(0.54802, 5);
    expect(cohensKappaFromMatrix(table, 'quadratic')).toBeCloseTo(0.61977, 5);
  });

  it('uses the order given in categories for string labels', () => {
    const names = ['low', 'mid', 'high'];
    const s = expand(table, names);
    expect(cohensKappa(s.a, s.b, { weights: 'linear', categories: names })).toBeCloseTo(97 / 177, 12);
    // Alphabetical order (high, low, mid) would be a different scale, so an order is required.
    expect(() => cohensKappa(s.a, s.b, { weights: 'linear' })).toThrow(TypeError);
    expect(cohensKappa(s.a, s.b)).toBeCloseTo(32 / 67, 12);
  });

  it('equals unweighted kappa when there are only 2 categories', () => {
    const two = [
      [20, 5],
      [10, 15],
    ];
    // p_o = 35/50 = .70; p_e = (25*30 + 25*20)/2500 = .50; kappa = .20/.50 = .40
    const { a: x, b: y } = expand(two, [0, 1]);
    expect(cohensKappa(x, y)).toBeCloseTo(0.4, 12);
    expect(cohensKappa(x, y, { weights: 'linear' })).toBeCloseTo(0.4, 12);
    expect(cohensKappa(x, y, { weights: 'quadratic' })).toBeCloseTo(0.4, 12);
  });

  // Cross-checks against other software's published output (not primary literature):
  // SAS PROC FREQ output for the table [[0,4,1],[0,8,0],[0,1,5]] as recorded in
  // statsmodels' test suite (statsmodels/stats/tests/test_inter_rater.py):
  // simple kappa 0.4842, weighted kappa (Cicchetti-Allison = linear) 0.4701.
  it('matches SAS PROC FREQ simple and weighted kappa', () => {
    const t = [
      [0, 4, 1],
      [0, 8, 0],
      [0, 1, 5],
    ];
    expect(cohensKappaFromMatrix(t)).toBeCloseTo(0.4842, 4);
    expect(cohensKappaFromMatrix(t, 'linear')).toBeCloseTo(0.4701, 4);
  });

  // R package irr, kappa2() on the `anxiety` data (raters 2 and 3), values recorded in
  // statsmodels' test_inter_rater.py: unweighted -0.006289308, "equal" 0.1459075,
  // "squared" 0.2520325. irr weights by position among the levels present (value 5
  // is unused), exactly as cohensKappa does when categories are inferred.
  it('matches R irr::kappa2 on the anxiety data', () => {
    const r2 = [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4];
    const r3 = [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2];
    expect(cohensKappa(r2, r3)).toBeCloseTo(-0.006289308, 8);
    expect(cohensKappa(r2, r3, { weights: 'linear' })).toBeCloseTo(0.1459075, 7);
    expect(cohensKappa(r2, r3, { weights: 'quadratic' })).toBeCloseTo(0.2520325, 7);
    // With the full 1..6 scale the unused rung counts as a step: the value changes.
    expect(cohensKappa(r2, r3, { weights: 'linear', categories: [1, 2, 3, 4, 5, 6] })).not.toBeCloseTo(0.1459075, 3);
  });
});

describe('cohensKappa: edge cases', () => {
  it('skips pairs with a missing rating', () => {
    const a = ['x', 'y', null, 'x', 'y', undefined];
    const b = ['x', 'y', 'x', 'y', 'y', 'y'];
    // Remaining pairs: (x,x) (y,y) (x,y) (y,y): p_o = 3/4; A: x 2, y 2; B: x 1, y 3;
    // p_e = (2*1 + 2*3)/16 = .5; kappa = .25/.5 = .5
    expect(cohensKappa(a, b)).toBeCloseTo(0.5, 12);
  });

  it('returns NaN when expected agreement is 1 or there are no pairs', () => {
    expect(cohensKappa(['a', 'a', 'a'], ['a', 'a', 'a'])).toBeNaN();
    expect(cohensKappa([null, 'a'], ['b', null])).toBeNaN();
    expect(cohensKappa([], [])).toBeNaN();
  });

  it('is 0 for constant but different raters and -1 for perfect disagreement with balanced marginals', () => {
    expect(cohensKappa(['a', 'a'], ['b', 'b'])).toBeCloseTo(0, 12);
    expect(cohensKappa(['a', 'b', 'a', 'b'], ['b', 'a', 'b', 'a'])).toBeCloseTo(-1, 12);
  });

  it('rejects mismatched lengths, labels outside categories and non-square tables', () => {
    expect(() => cohensKappa(['a'], ['a', 'b'])).toThrow(RangeError);
    expect(() => cohensKappa(['a', 'z'], ['a', 'a'], { categories: ['a', 'b'] })).toThrow(RangeError);
    expect(() => cohensKappaFromMatrix([[1, 2]])).toThrow(RangeError);
  });
});
