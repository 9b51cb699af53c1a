import { describe, expect, it } from 'vitest';

import {
  bootstrapCI,
  cohensKappa,
  fleissCounts,
  fleissKappa,
  krippendorffAlpha,
  mulberry32,
  randomInt,
  type Label,
  type RandomSource,
} from '../../../src/core/agreement/index.js';

// Property checks over seeded random data; every case is reproducible from its seed.

function labels(random: RandomSource, n: number, k: number): number[] {
  // Guarantees at least two distinct categories so the statistics are defined.
  const out = Array.from({ length: n }, () => randomInt(random, k));
  out[0] = 0;
  out[1] = 1;
  return out;
}

function shuffle<T>(random: RandomSource, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Ratings of `raters` raters who copy the truth with probability `accuracy`, otherwise guess. */
function noisyRaters(random: RandomSource, truth: number[], raters: number, k: number, accuracy: number): number[][] {
  return Array.from({ length: raters }, () => truth.map((t) => (random() < accuracy ? t : randomInt(random, k))));
}

const transpose = <T>(rows: T[][]): T[][] => rows[0]!.map((_, j) => rows.map((row) => row[j]!));

describe('perfect agreement gives 1', () => {
  it('for kappa (all weights), Fleiss and alpha (all levels)', () => {
    const random = mulberry32(1);
    for (let trial = 0; trial < 50; trial++) {
      const k = 2 + randomInt(random, 5);
      const n = 10 + randomInt(random, 90);
      const truth = labels(random, n, k);
      const raters = 2 + randomInt(random, 5);
      const copies = Array.from({ length: raters }, () => [...truth]);
      expect(cohensKappa(truth, [...truth])).toBeCloseTo(1, 12);
      expect(cohensKappa(truth, [...truth], { weights: 'linear' })).toBeCloseTo(1, 12);
      expect(cohensKappa(truth, [...truth], { weights: 'quadratic' })).toBeCloseTo(1, 12);
      expect(fleissKappa(fleissCounts(transpose(copies)).counts)).toBeCloseTo(1, 12);
      for (const level of ['nominal', 'ordinal', 'interval'] as const) {
        expect(krippendorffAlpha(copies, level)).toBeCloseTo(1, 12);
      }
    }
  });
});

describe('independent raters give chance-level agreement', () => {
  it('|kappa| < 0.05 and |alpha| < 0.05 over 10,000 items', () => {
    for (const seed of [11, 12, 13, 14, 15]) {
      const random = mulberry32(seed);
      const k = 2 + (seed % 4);
      const a = Array.from({ length: 10_000 }, () => randomInt(random, k));
      const b = Array.from({ length: 10_000 }, () => randomInt(random, k));
      expect(Math.abs(cohensKappa(a, b))).toBeLessThan(0.05);
      expect(Math.abs(cohensKappa(a, b, { weights: 'quadratic' }))).toBeLessThan(0.05);
      expect(Math.abs(krippendorffAlpha([a, b], 'nominal'))).toBeLessThan(0.05);
      expect(Math.abs(krippendorffAlpha([a, b], 'ordinal'))).toBeLessThan(0.05);
      expect(Math.abs(krippendorffAlpha([a, b], 'interval'))).toBeLessThan(0.05);
      // The chance-corrected statistics sit near 0 even though raw agreement (~1/k) does not.
      expect(a.filter((x, i) => x === b[i]).length / a.length).toBeCloseTo(1 / k, 1);
    }
  });

  it('kappa stays near 0 when the independent raters have different marginals; alpha does not', () => {
    // Cohen's kappa corrects with each rater's own marginals; Krippendorff's alpha pools
    // them, so a rater who over-uses one category counts as disagreement.
    const random = mulberry32(16);
    const a = Array.from({ length: 10_000 }, () => randomInt(random, 3));
    const b = Array.from({ length: 10_000 }, () => (random() < 0.6 ? 0 : randomInt(random, 3)));
    expect(Math.abs(cohensKappa(a, b))).toBeLessThan(0.05);
    expect(krippendorffAlpha([a, b], 'nominal')).toBeLessThan(-0.05);
  });

  it('|Fleiss kappa| < 0.05 for 5 independent raters', () => {
    const random = mulberry32(21);
    const units = Array.from({ length: 4000 }, () => Array.from({ length: 5 }, () => randomInt(random, 3)));
    expect(Math.abs(fleissKappa(fleissCounts(units).counts))).toBeLessThan(0.05);
  });
});

describe('renaming categories (a bijection) leaves nominal statistics unchanged', () => {
  it('for nominal kappa, Fleiss and nominal alpha', () => {
    const random = mulberry32(31);
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    for (let trial = 0; trial < 30; trial++) {
      const k = 2 + randomInt(random, 5);
      const n = 30 + randomInt(random, 70);
      const truth = labels(random, n, k);
      const raters = noisyRaters(random, truth, 3, k, 0.6);
      // punch some holes for alpha (missing data)
      const withMissing: (number | null)[][] = raters.map((row) => row.map((v) => (random() < 0.1 ? null : v)));
      const bijection = shuffle(random, names).slice(0, k);
      const rename = (v: number | null): Label | null => (v === null ? null : bijection[v]!);
      const renamed = raters.map((row) => row.map(rename));
      const renamedMissing = withMissing.map((row) => row.map(rename));

      expect(cohensKappa(renamed[0]!, renamed[1]!)).toBeCloseTo(cohensKappa(raters[0]!, raters[1]!), 12);
      expect(fleissKappa(fleissCounts(transpose(renamed)).counts)).toBeCloseTo(fleissKappa(fleissCounts(transpose(raters)).counts), 12);
      expect(krippendorffAlpha(renamedMissing, 'nominal')).toBeCloseTo(krippendorffAlpha(withMissing, 'nominal'), 12);
    }
  });

  it('reversing an ordinal scale leaves weighted kappa and ordinal/interval alpha unchanged', () => {
    const random = mulberry32(41);
    for (let trial = 0; trial < 30; trial++) {
      const k = 3 + randomInt(random, 4);
      const truth = labels(random, 60, k);
      const [a, b] = noisyRaters(random, truth, 2, k, 0.5) as [number[], number[]];
      const scale = Array.from({ length: k }, (_, i) => i);
      const reversed = [...scale].reverse();
      for (const weights of ['linear', 'quadratic'] as const) {
        expect(cohensKappa(a, b, { weights, categories: reversed })).toBeCloseTo(cohensKappa(a, b, { weights, categories: scale }), 12);
      }
      const flip = (v: number): number => k - 1 - v;
      for (const level of ['ordinal', 'interval'] as const) {
        expect(krippendorffAlpha([a.map(flip), b.map(flip)], level)).toBeCloseTo(krippendorffAlpha([a, b], level), 12);
      }
    }
  });
});

describe('more agreement ranks higher', () => {
  it('kappa, Fleiss and alpha all increase with rater accuracy', () => {
    const random = mulberry32(51);
    const truth = labels(random, 3000, 4);
    const at = (accuracy: number): number[] => {
      const raters = noisyRaters(mulberry32(52), truth, 3, 4, accuracy);
      return [
        cohensKappa(raters[0]!, raters[1]!),
        fleissKappa(fleissCounts(transpose(raters)).counts),
        krippendorffAlpha(raters, 'nominal'),
      ];
    };
    const low = at(0.3);
    const high = at(0.8);
    // Two raters who copy with probability p agree beyond chance ~ p^2: .09 vs .64.
    low.forEach((v) => expect(v).toBeCloseTo(0.09, 1));
    high.forEach((v) => expect(v).toBeCloseTo(0.64, 1));
  });
});

describe('bootstrap CI properties', () => {
  it('contains the estimate and is deterministic under the same seed', () => {
    const random = mulberry32(61);
    for (let trial = 0; trial < 20; trial++) {
      const k = 2 + randomInt(random, 3);
      const truth = labels(random, 80 + randomInt(random, 120), k);
      const [human, judge] = noisyRaters(random, truth, 2, k, 0.4 + 0.5 * random()) as [number[], number[]];
      const pairs = human.map((h, i) => [h, judge[i]!] as const);
      const kappa = (sample: (typeof pairs)[number][]): number =>
        cohensKappa(
          sample.map((p) => p[0]),
          sample.map((p) => p[1]),
        );
      const seed = 1000 + trial;
      const ci = bootstrapCI(pairs, kappa, { iterations: 300, random: mulberry32(seed) });
      expect(ci.low).toBeLessThanOrEqual(ci.estimate);
      expect(ci.high).toBeGreaterThanOrEqual(ci.estimate);
      expect(ci.high - ci.low).toBeGreaterThan(0);
      expect(bootstrapCI(pairs, kappa, { iterations: 300, random: mulberry32(seed) })).toEqual(ci);
    }
  });
});
