import type { ConfusionMatrix } from './confusion-matrix.js';
import type { Label } from './label.js';

/** One-vs-rest scores for a category, each a proportion in 0..1. */
export interface ClassMetrics {
  readonly category: Label;
  /** Items whose truth is this category (row total). */
  readonly support: number;
  /** TP / predicted-as-category; null when the category was never predicted. */
  readonly precision: number | null;
  /** TP / truly-in-category; null when the category never occurs in truth. */
  readonly recall: number | null;
  /** 2TP / (2TP + FP + FN); null only when the category occurs in neither truth nor predictions. */
  readonly f1: number | null;
}

/**
 * Precision, recall and F1 per category from a confusion matrix (rows = truth,
 * columns = predicted). A zero denominator yields null rather than NaN or 0 so
 * a report can show "n/a" instead of a misleading number. F1 uses the
 * 2TP/(2TP+FP+FN) form, which equals the harmonic mean of precision and recall
 * whenever both exist and is 0 (not null) when a present class is never hit.
 */
export function perClassMetrics(confusion: ConfusionMatrix): ClassMetrics[] {
  const { categories, matrix } = confusion;
  return categories.map((category, k) => {
    const row = matrix[k] ?? [];
    const tp = row[k] ?? 0;
    const support = sum(row);
    const predicted = sum(matrix.map((r) => r[k] ?? 0));
    const fn = support - tp;
    const fp = predicted - tp;
    return {
      category,
      support,
      precision: ratio(tp, predicted),
      recall: ratio(tp, support),
      f1: ratio(2 * tp, 2 * tp + fp + fn),
    };
  });
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, v) => total + v, 0);
}
