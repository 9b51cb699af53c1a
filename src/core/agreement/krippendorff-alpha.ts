import { categoryPosition, collectCategories, indexCategories, isPresent, type Label, type MaybeLabel } from './label.js';

/**
 * Metric of the values: 'nominal' (labels only), 'ordinal' (ranked; distances
 * from the marginal frequencies of the values between two ranks) or
 * 'interval' (numeric; squared difference).
 */
export type AlphaLevel = 'nominal' | 'ordinal' | 'interval';

export interface KrippendorffAlphaOptions {
  /** Rank order of values for 'ordinal' (required when values are strings); defaults to numbers ascending. */
  categories?: readonly Label[];
}

/**
 * Krippendorff's alpha = 1 - Do/De, observed over chance-expected disagreement,
 * computed from the coincidence matrix (Krippendorff 2011, "Computing
 * Krippendorff's Alpha-Reliability"). data[r][u] is observer r's value for unit
 * u; null/undefined means missing, and rows may differ in length. Units with
 * fewer than 2 values are not pairable and are dropped. Dimensionless, 1 =
 * perfect reliability, 0 = chance. Returns NaN when undefined: no pairable
 * unit, or no expected disagreement (a single value throughout). Throws for
 * 'interval' with non-numeric values and for 'ordinal' string values without
 * `categories`.
 */
export function krippendorffAlpha(
  data: readonly (readonly MaybeLabel[])[],
  level: AlphaLevel,
  opts: KrippendorffAlphaOptions = {},
): number {
  const unitCount = Math.max(0, ...data.map((row) => row.length));
  const units: Label[][] = [];
  for (let u = 0; u < unitCount; u++) {
    const values = data.map((row) => row[u]).filter(isPresent);
    if (values.length >= 2) units.push(values);
  }
  if (units.length === 0) return NaN;

  const values = opts.categories ? [...opts.categories] : collectCategories(units.flat());
  if (level === 'ordinal' && !opts.categories && values.some((value) => typeof value === 'string')) {
    throw new TypeError('ordinal alpha on string values needs an explicit categories order');
  }
  const index = indexCategories(values);
  const v = values.length;

  const coincidence = values.map(() => new Array<number>(v).fill(0));
  for (const unit of units) {
    const positions = unit.map((value) => categoryPosition(index, value));
    const weight = 1 / (unit.length - 1);
    positions.forEach((c, i) => {
      positions.forEach((k, j) => {
        if (i !== j) coincidence[c]![k]! += weight;
      });
    });
  }
  const marginals = coincidence.map((row) => row.reduce((s, x) => s + x, 0));
  const n = marginals.reduce((s, x) => s + x, 0);
  const delta = distance(level, values, marginals);

  let observed = 0;
  let expected = 0;
  for (let c = 0; c < v; c++) {
    for (let k = 0; k < v; k++) {
      const d = delta(c, k);
      observed += coincidence[c]![k]! * d;
      expected += marginals[c]! * marginals[k]! * d;
    }
  }
  if (expected === 0) return NaN;
  return 1 - ((n - 1) * observed) / expected;
}

/** Squared difference function δ²(c, k) over value positions. */
function distance(level: AlphaLevel, values: readonly Label[], marginals: readonly number[]): (c: number, k: number) => number {
  switch (level) {
    case 'nominal':
      return (c, k) => (c === k ? 0 : 1);
    case 'interval': {
      const numeric = values.map((value) => {
        if (typeof value !== 'number') throw new TypeError(`interval alpha needs numeric values, got ${JSON.stringify(value)}`);
        return value;
      });
      return (c, k) => (numeric[c]! - numeric[k]!) ** 2;
    }
    case 'ordinal': {
      const cumulative = [0];
      for (const m of marginals) cumulative.push(cumulative[cumulative.length - 1]! + m);
      return (c, k) => {
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        const between = cumulative[hi + 1]! - cumulative[lo]!;
        return (between - (marginals[lo]! + marginals[hi]!) / 2) ** 2;
      };
    }
  }
}
