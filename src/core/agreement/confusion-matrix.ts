import { assertSameLength, categoryPosition, collectCategories, indexCategories, isPresent, type Label, type MaybeLabel } from './label.js';

/** Counts of (truth, predicted) pairs: matrix[i][j] = items with truth categories[i] predicted as categories[j]. */
export interface ConfusionMatrix {
  readonly categories: Label[];
  readonly matrix: number[][];
}

/**
 * Cross-tabulates paired labels; rows are truth (e.g. the human majority),
 * columns are predictions (e.g. the LLM judge). Pairs with a missing label are
 * skipped. Categories default to every label seen (numbers ascending, then
 * strings); pass them to fix the order or include categories nobody used.
 * Throws when a label is not among the given categories.
 */
export function confusionMatrix(
  truth: readonly MaybeLabel[],
  predicted: readonly MaybeLabel[],
  categories?: readonly Label[],
): ConfusionMatrix {
  assertSameLength(truth, predicted);
  const cats = categories ? [...categories] : collectCategories(truth, predicted);
  const index = indexCategories(cats);
  const matrix = cats.map(() => cats.map(() => 0));
  truth.forEach((t, i) => {
    const p = predicted[i];
    if (!isPresent(t) || !isPresent(p)) return;
    const row = matrix[categoryPosition(index, t)]!;
    const col = categoryPosition(index, p);
    row[col] = row[col]! + 1;
  });
  return { categories: cats, matrix };
}
