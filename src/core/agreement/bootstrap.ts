import { randomInt, type RandomSource } from './seeded-random.js';

export interface BootstrapOptions {
  /** Resamples to draw; default 1000. */
  iterations?: number;
  /** Two-sided coverage in (0, 1); default 0.95. */
  confidence?: number;
  /** Uniform [0, 1) source; pass `mulberry32(seed)` for reproducible intervals. */
  random: RandomSource;
}

export interface BootstrapInterval {
  /** The statistic on the full sample. */
  estimate: number;
  /** Lower and upper percentile bounds, in the statistic's units; NaN when no resample gave a number. */
  low: number;
  high: number;
  /** Resamples whose statistic was not NaN (those are skipped). */
  validIterations: number;
}

/**
 * Percentile bootstrap confidence interval: resamples the items with
 * replacement (keep paired ratings together in one item), recomputes the
 * statistic, and takes the (1-c)/2 and (1+c)/2 quantiles (linear interpolation
 * between order statistics). Resamples where the statistic is NaN (e.g. kappa
 * on a resample with a single category) are skipped. All NaN for no items.
 */
export function bootstrapCI<T>(
  items: readonly T[],
  statistic: (sample: T[]) => number,
  { iterations = 1000, confidence = 0.95, random }: BootstrapOptions,
): BootstrapInterval {
  if (!Number.isInteger(iterations) || iterations < 1) throw new RangeError('iterations must be a positive integer');
  if (!(confidence > 0 && confidence < 1)) throw new RangeError('confidence must be in (0, 1)');
  if (items.length === 0) return { estimate: NaN, low: NaN, high: NaN, validIterations: 0 };

  const estimate = statistic([...items]);
  const stats: number[] = [];
  const n = items.length;
  for (let it = 0; it < iterations; it++) {
    const sample = new Array<T>(n);
    for (let i = 0; i < n; i++) sample[i] = items[randomInt(random, n)]!;
    const value = statistic(sample);
    if (!Number.isNaN(value)) stats.push(value);
  }
  stats.sort((x, y) => x - y);
  const tail = (1 - confidence) / 2;
  return {
    estimate,
    low: quantile(stats, tail),
    high: quantile(stats, 1 - tail),
    validIterations: stats.length,
  };
}

function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const lo = sorted[below]!;
  const hi = sorted[above]!;
  return lo + (hi - lo) * (position - below);
}
