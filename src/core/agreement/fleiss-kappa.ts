import { categoryPosition, collectCategories, indexCategories, isPresent, type Label, type MaybeLabel } from './label.js';

/**
 * Fleiss' (1971) kappa for many raters on nominal categories.
 * counts[i][j] = number of raters who put item i in category j; every item must
 * have the same number of ratings n >= 2 (raters need not be the same people).
 * Dimensionless, 1 = perfect agreement, 0 = chance. Returns NaN when undefined:
 * no items, or chance agreement is 1 (every rating in one category).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): number {
  const items = counts.length;
  if (items === 0) return NaN;
  const raters = sum(counts[0]!);
  if (raters < 2) throw new RangeError('Fleiss kappa needs at least 2 ratings per item');
  const k = counts[0]!.length;

  const categoryTotals = new Array<number>(k).fill(0);
  let meanItemAgreement = 0;
  counts.forEach((row, i) => {
    if (row.length !== k) throw new RangeError(`item ${i} has ${row.length} categories, expected ${k}`);
    if (sum(row) !== raters) {
      throw new RangeError(`item ${i} has ${sum(row)} ratings, expected ${raters} (equal raters per item)`);
    }
    row.forEach((c, j) => {
      categoryTotals[j] = categoryTotals[j]! + c;
    });
    const agreeingPairs = row.reduce((s, c) => s + c * (c - 1), 0);
    meanItemAgreement += agreeingPairs / (raters * (raters - 1)) / items;
  });
  const chance = categoryTotals.reduce((s, t) => s + (t / (items * raters)) ** 2, 0);
  if (chance === 1) return NaN;
  return (meanItemAgreement - chance) / (1 - chance);
}

/**
 * Builds Fleiss counts from a units × raters label matrix (labels[i][r] = rater
 * r's label for item i). Missing labels are not counted, so items with missing
 * ratings will make `fleissKappa` throw; use Krippendorff's alpha for those.
 */
export function fleissCounts(
  labels: readonly (readonly MaybeLabel[])[],
  categories?: readonly Label[],
): { categories: Label[]; counts: number[][] } {
  const cats = categories ? [...categories] : collectCategories(labels.flat());
  const index = indexCategories(cats);
  const counts = labels.map((unit) => {
    const row = cats.map(() => 0);
    for (const label of unit) {
      if (!isPresent(label)) continue;
      const j = categoryPosition(index, label);
      row[j] = row[j]! + 1;
    }
    return row;
  });
  return { categories: cats, counts };
}

function sum(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0);
}
