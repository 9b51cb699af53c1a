import { confusionMatrix } from './confusion-matrix.js';
import type { Label, MaybeLabel } from './label.js';

/**
 * Disagreement weighting. 'none' is Cohen's (1960) kappa; 'linear' and
 * 'quadratic' are Cohen's (1968) weighted kappa, penalising a disagreement by
 * |i-j| or (i-j)^2 where i, j are the categories' positions in the order.
 */
export type KappaWeights = 'none' | 'linear' | 'quadratic';

export interface CohensKappaOptions {
  weights?: KappaWeights;
  /**
   * Category order (and the full category set). Defaults to the labels seen,
   * numbers ascending. Weighted kappa uses positions in this list, not the
   * numeric values, so pass it when some rung of an ordinal scale may be unused.
   */
  categories?: readonly Label[];
}

/**
 * Cohen's kappa between two raters on the same items: (po - pe) / (1 - pe),
 * or with weights 1 - (observed disagreement / chance-expected disagreement).
 * Dimensionless; 1 = perfect agreement, 0 = chance level, negative = worse than
 * chance. Items where either rating is missing are skipped. Weighted kappa on
 * string labels throws unless `categories` gives their order. Returns NaN when
 * kappa is undefined: no paired items, or chance-expected disagreement is 0
 * (expected agreement = 1, e.g. both raters always use one and the same label).
 */
export function cohensKappa(a: readonly MaybeLabel[], b: readonly MaybeLabel[], opts: CohensKappaOptions = {}): number {
  const weights = opts.weights ?? 'none';
  const { categories, matrix } = confusionMatrix(a, b, opts.categories);
  if (weights !== 'none' && !opts.categories && categories.some((c) => typeof c === 'string')) {
    throw new TypeError('weighted kappa on string labels needs an explicit categories order');
  }
  return cohensKappaFromMatrix(matrix, weights);
}

/**
 * Cohen's kappa from a square k×k table of counts (or proportions):
 * table[i][j] = items rater A put in category i and rater B in category j,
 * categories in scale order. NaN when undefined, as for `cohensKappa`.
 */
export function cohensKappaFromMatrix(table: readonly (readonly number[])[], weights: KappaWeights = 'none'): number {
  const k = table.length;
  for (const row of table) {
    if (row.length !== k) throw new RangeError('kappa table must be square');
  }
  const rowTotals = table.map((row) => row.reduce((s, v) => s + v, 0));
  const colTotals = table.map((_, j) => table.reduce((s, row) => s + (row[j] ?? 0), 0));
  const n = rowTotals.reduce((s, v) => s + v, 0);
  if (n === 0) return NaN;

  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = disagreementWeight(i, j, weights);
      observed += (w * (table[i]![j] ?? 0)) / n;
      expected += (w * rowTotals[i]! * colTotals[j]!) / (n * n);
    }
  }
  if (expected === 0) return NaN;
  return 1 - observed / expected;
}

function disagreementWeight(i: number, j: number, weights: KappaWeights): number {
  switch (weights) {
    case 'none':
      return i === j ? 0 : 1;
    case 'linear':
      return Math.abs(i - j);
    case 'quadratic':
      return (i - j) ** 2;
  }
}
