import { describe, expect, it } from 'vitest';

import { mulberry32 } from '../../../src/core/agreement/seeded-random.js';
import { fitLogistic, predictLogistic } from '../../../src/core/learn/logistic-regression.js';

/** Rows drawn from a known logistic model: y ~ Bernoulli(σ(−1 + 2·x0 − 3·x1)). */
function synthetic(n: number, seed: number) {
  const rng = mulberry32(seed);
  const rows: number[][] = [];
  const labels: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = [rng(), rng(), rng()];
    const p = 1 / (1 + Math.exp(-(-1 + 2 * (x[0] as number) - 3 * (x[1] as number))));
    rows.push(x);
    labels.push(rng() < p ? 1 : 0);
  }
  return { rows, labels, weights: rows.map(() => 1) };
}

describe('fitLogistic', () => {
  it('recovers the coefficients of the model that made the data', () => {
    const { rows, labels, weights } = synthetic(20_000, 7);
    const fit = fitLogistic(rows, labels, weights, { l2: 0 });
    // Back to raw units: coefficient = weight / scale.
    const raw = fit.weights.map((w, j) => w / (fit.scale[j] as number));
    expect(raw[0]).toBeCloseTo(2, 0);
    expect(raw[1]).toBeCloseTo(-3, 0);
    expect(Math.abs(raw[2] as number)).toBeLessThan(0.3);
    expect(predictLogistic(fit, [0.5, 0.5, 0.5])).toBeCloseTo(1 / (1 + Math.exp(-(-1 + 1 - 1.5))), 1);
  });
  it('is deterministic: the same rows give the same model, bit for bit', () => {
    const { rows, labels, weights } = synthetic(2_000, 11);
    expect(fitLogistic(rows, labels, weights)).toEqual(fitLogistic(rows, labels, weights));
  });
  it('honours sample weights: doubling a row equals weighting it 2', () => {
    const rows = [[0], [1], [2], [3], [1.5]];
    const labels = [0, 0, 1, 1, 0];
    const doubled = fitLogistic([...rows, [1.5]], [...labels, 0], [1, 1, 1, 1, 1, 1]);
    const weighted = fitLogistic(rows, labels, [1, 1, 1, 1, 2]);
    expect(weighted.weights[0]).toBeCloseTo(doubled.weights[0] as number, 8);
    expect(weighted.intercept).toBeCloseTo(doubled.intercept, 8);
  });
  it('stays finite on separable data thanks to the penalty', () => {
    const fit = fitLogistic([[0], [1], [2], [3]], [0, 0, 1, 1], [1, 1, 1, 1], { l2: 0.01 });
    expect(Number.isFinite(fit.weights[0])).toBe(true);
    expect(predictLogistic(fit, [3])).toBeGreaterThan(0.9);
  });
  it('refuses empty input', () => {
    expect(() => fitLogistic([], [], [])).toThrow(/no rows/);
  });
});
