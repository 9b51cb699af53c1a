import { bootstrapCI } from './bootstrap.js';
import { cohensKappaFromMatrix } from './cohens-kappa.js';
import { confusionMatrix } from './confusion-matrix.js';
import { perClassMetrics, type ClassMetrics } from './per-class-metrics.js';
import { mulberry32 } from './seeded-random.js';

/** How a rater's labels compare with reference labels on the same items. Undefined statistics are null. */
export interface RaterComparison {
  readonly items: number;
  readonly percentAgreement: number | null;
  readonly cohensKappa: number | null;
  /** Percentile bootstrap 95% interval of Cohen's kappa (seeded). */
  readonly kappaCI: { readonly low: number | null; readonly high: number | null; readonly iterations: number };
  /** Linearly and quadratically weighted kappa, for an ordinal scale. */
  readonly weightedKappa?: { readonly linear: number | null; readonly quadratic: number | null };
  /** Rows: reference; columns: the rater. */
  readonly confusion: { readonly categories: readonly string[]; readonly matrix: readonly (readonly number[])[] };
  readonly perClass: readonly ClassMetrics[];
}

export interface CompareOptions {
  /** Bootstrap seed. @default 1 */
  readonly seed?: number;
  /** Bootstrap resamples. @default 1000 */
  readonly iterations?: number;
  /** Report weighted kappa too. @default false */
  readonly ordinal?: boolean;
}

/**
 * Compares paired labels (reference[i] and rater[i] on item i) over fixed
 * categories: percent agreement, Cohen's kappa with a seeded bootstrap
 * interval, the confusion matrix and per-class scores, rounded to 4 places.
 * One function for the agreement report and `candor eval detect`, so the two
 * print the same figures for the same labels.
 */
export function compareRaters(
  reference: readonly string[],
  rater: readonly string[],
  categories: readonly string[],
  options: CompareOptions = {},
): RaterComparison {
  if (reference.length !== rater.length) throw new RangeError('reference and rater need one label per item each');
  const confusion = confusionMatrix(reference, rater, categories);
  const n = reference.length;
  const k = categories.length;
  // Bootstrap on (reference, rater) category-pair codes: a resample is a table of counts, not a relabelling.
  const codes = reference.map((t, i) => categories.indexOf(t) * k + categories.indexOf(rater[i] as string));
  const kappaOf = (sample: readonly number[]) => {
    const table = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    for (const code of sample) {
      const row = table[Math.floor(code / k)] as number[];
      row[code % k] = (row[code % k] as number) + 1;
    }
    return cohensKappaFromMatrix(table);
  };
  const iterations = options.iterations ?? 1000;
  const ci = bootstrapCI(codes, kappaOf, { iterations, random: mulberry32(options.seed ?? 1) });
  const matrix = confusion.matrix;
  return {
    items: n,
    percentAgreement: n > 0 ? round(reference.filter((t, i) => t === rater[i]).length / n) : null,
    cohensKappa: n > 0 ? num(cohensKappaFromMatrix(matrix)) : null,
    kappaCI: { low: num(ci.low), high: num(ci.high), iterations },
    ...(options.ordinal
      ? {
          weightedKappa: {
            linear: n > 0 ? num(cohensKappaFromMatrix(matrix, 'linear')) : null,
            quadratic: n > 0 ? num(cohensKappaFromMatrix(matrix, 'quadratic')) : null,
          },
        }
      : {}),
    confusion: { categories: [...categories], matrix },
    perClass: perClassMetrics(confusion).map((c) => ({
      ...c,
      precision: nullable(c.precision),
      recall: nullable(c.recall),
      f1: nullable(c.f1),
    })),
  };
}

export function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

function num(x: number): number | null {
  return Number.isFinite(x) ? round(x) : null;
}

function nullable(x: number | null): number | null {
  return x === null ? null : round(x);
}
