import { bootstrapCI } from '../agreement/bootstrap.js';
import { mulberry32 } from '../agreement/seeded-random.js';

/** One answer a check judged, with the reference label: is it supported by its evidence? */
export interface JudgedAnswer {
  readonly supported: boolean;
  /** The check let the answer through (true) or flagged it (false). */
  readonly passed: boolean;
  /** The check's graded score, higher = better supported (a pass/fail check scores 1/0). */
  readonly score: number;
}

/** Rows: the reference label; columns: what the check did. */
export interface FlaggingConfusion {
  readonly supported: { readonly passed: number; readonly flagged: number };
  readonly unsupported: { readonly passed: number; readonly flagged: number };
}

/** A figure on the full sample with its percentile bootstrap interval; null where it is undefined (no items of a class). */
export interface Estimate {
  readonly estimate: number | null;
  readonly low: number | null;
  readonly high: number | null;
}

export interface FlaggingFigures {
  readonly labelled: number;
  /** Share of unsupported answers the check flagged (its recall of bad answers). */
  readonly unsupportedFlagged: Estimate;
  /** Share of supported answers the check let through. */
  readonly supportedPassed: Estimate;
  /** How well the score ranks supported above unsupported answers. */
  readonly auc: Estimate;
  readonly confusion: FlaggingConfusion;
}

export interface FigureOptions {
  /** @default 1 */
  readonly seed?: number;
  /** @default 1000 */
  readonly iterations?: number;
  /** @default 0.95 */
  readonly confidence?: number;
}

/** count / total; NaN when there is nothing to count. */
export function rate(count: number, total: number): number {
  return total === 0 ? NaN : count / total;
}

/**
 * The Mann–Whitney AUC: the probability that a random positive scores above a
 * random negative, ties counted as one half. Computed from average ranks, so
 * O(n log n). NaN when either group is empty.
 */
export function mannWhitneyAuc(positives: readonly number[], negatives: readonly number[]): number {
  const p = positives.length;
  const q = negatives.length;
  if (p === 0 || q === 0) return NaN;
  const all = [...positives.map((score) => ({ score, positive: true })), ...negatives.map((score) => ({ score, positive: false }))];
  all.sort((a, b) => a.score - b.score);
  let positiveRanks = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j]!.score === all[i]!.score) j++;
    const averageRank = (i + 1 + j) / 2; // ranks i+1 … j share their mean
    for (let k = i; k < j; k++) if (all[k]!.positive) positiveRanks += averageRank;
    i = j;
  }
  return (positiveRanks - (p * (p + 1)) / 2) / (p * q);
}

export function flaggingConfusion(items: readonly JudgedAnswer[]): FlaggingConfusion {
  const count = (supported: boolean, passed: boolean) => items.filter((i) => i.supported === supported && i.passed === passed).length;
  return {
    supported: { passed: count(true, true), flagged: count(true, false) },
    unsupported: { passed: count(false, true), flagged: count(false, false) },
  };
}

const unsupportedFlagged = (items: readonly JudgedAnswer[]) =>
  rate(items.filter((i) => !i.supported && !i.passed).length, items.filter((i) => !i.supported).length);
const supportedPassed = (items: readonly JudgedAnswer[]) =>
  rate(items.filter((i) => i.supported && i.passed).length, items.filter((i) => i.supported).length);
const supportAuc = (items: readonly JudgedAnswer[]) =>
  mannWhitneyAuc(
    items.filter((i) => i.supported).map((i) => i.score),
    items.filter((i) => !i.supported).map((i) => i.score),
  );

/**
 * How well a check separates supported from unsupported answers: the share of
 * unsupported ones it flags, the share of supported ones it passes, and the AUC
 * of its score, each with a seeded percentile bootstrap interval (answers
 * resampled with replacement), so the same input always gives the same figures.
 */
export function flaggingFigures(items: readonly JudgedAnswer[], options: FigureOptions = {}): FlaggingFigures {
  const estimate = (statistic: (sample: readonly JudgedAnswer[]) => number): Estimate => {
    const ci = bootstrapCI(items, statistic, {
      iterations: options.iterations ?? 1000,
      confidence: options.confidence ?? 0.95,
      random: mulberry32(options.seed ?? 1),
    });
    return { estimate: finite(ci.estimate), low: finite(ci.low), high: finite(ci.high) };
  };
  return {
    labelled: items.length,
    unsupportedFlagged: estimate(unsupportedFlagged),
    supportedPassed: estimate(supportedPassed),
    auc: estimate(supportAuc),
    confusion: flaggingConfusion(items),
  };
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
