import { describe, expect, it } from 'vitest';

import { bootstrapCI, cohensKappa, mulberry32, randomInt } from '../../../src/core/agreement/index.js';

const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('mulberry32', () => {
  it('matches the reference mulberry32 (Tommy Ettinger, as published in bryc/code "PRNGs.md")', () => {
    function reference(a: number): () => number {
      return () => {
        a |= 0;
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }
    for (const seed of [0, 1, 42, 2 ** 32 - 1]) {
      const ours = mulberry32(seed);
      const ref = reference(seed);
      for (let i = 0; i < 1000; i++) expect(ours()).toBe(ref());
    }
    expect(mulberry32(1)()).toBeCloseTo(0.6270739405881613, 15);
  });

  it('is deterministic per seed, in [0, 1), and roughly uniform', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const xs = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(mean(xs)).toBeCloseTo(0.5, 2);
    // variance of U(0,1) is 1/12
    expect(mean(xs.map((x) => (x - 0.5) ** 2))).toBeCloseTo(1 / 12, 2);
  });

  it('randomInt covers [0, n) evenly', () => {
    const random = mulberry32(7);
    const hits = [0, 0, 0, 0];
    for (let i = 0; i < 40_000; i++) hits[randomInt(random, 4)]! += 1;
    // SD of each share is sqrt(.25 * .75 / 40000) = .0022; allow ~4.5 SD.
    for (const h of hits) expect(Math.abs(h / 40_000 - 0.25)).toBeLessThan(0.01);
    expect(randomInt(() => 0.9999999999999999, 3)).toBe(2);
  });
});

describe('bootstrapCI', () => {
  it('takes linear-interpolated percentiles of the resampled statistics', () => {
    // A statistic that ignores the sample and counts calls: estimate = 0, resamples = 1..1000.
    // 95%: low at position 999 * 0.025 = 24.975 of the sorted list -> 25 + 0.975 = 25.975;
    //      high at position 999 * 0.975 = 974.025 -> 975.025.
    let calls = 0;
    const ci = bootstrapCI([1, 2, 3], () => calls++, { random: mulberry32(1) });
    expect(ci.estimate).toBe(0);
    expect(ci.validIterations).toBe(1000);
    expect(ci.low).toBeCloseTo(25.975, 10);
    expect(ci.high).toBeCloseTo(975.025, 10);
  });

  it('skips NaN statistics', () => {
    let calls = 0;
    const ci = bootstrapCI([1], () => (calls++ % 2 === 0 ? NaN : calls), { iterations: 100, confidence: 0.9, random: mulberry32(1) });
    // estimate is call 0 -> NaN; resamples 1..100 give NaN on even calls, so 50 values 2, 4, ..., 100.
    expect(ci.estimate).toBeNaN();
    expect(ci.validIterations).toBe(50);
    // 90%: positions 49 * 0.05 = 2.45 -> 6 + 0.45*2 = 6.9; 49 * 0.95 = 46.55 -> 94 + 0.55*2 = 95.1
    expect(ci.low).toBeCloseTo(6.9, 10);
    expect(ci.high).toBeCloseTo(95.1, 10);
  });

  it('resamples with replacement: a constant sample has a zero-width interval', () => {
    const ci = bootstrapCI([5, 5, 5, 5], mean, { iterations: 200, random: mulberry32(3) });
    expect(ci).toEqual({ estimate: 5, low: 5, high: 5, validIterations: 200 });
  });

  it('gives the textbook width for the mean of a 0/1 sample', () => {
    // 200 items, 60 ones: p = .3, bootstrap SE ~ sqrt(.3 * .7 / 200) = .0324, so the 95% interval is ~ .3 +- .064.
    const items = Array.from({ length: 200 }, (_, i) => (i < 60 ? 1 : 0));
    const ci = bootstrapCI(items, mean, { iterations: 4000, random: mulberry32(11) });
    expect(ci.estimate).toBeCloseTo(0.3, 12);
    expect(ci.low).toBeCloseTo(0.3 - 1.96 * Math.sqrt(0.21 / 200), 1);
    expect(ci.high).toBeCloseTo(0.3 + 1.96 * Math.sqrt(0.21 / 200), 1);
    expect(ci.high - ci.low).toBeGreaterThan(0.1);
    expect(ci.high - ci.low).toBeLessThan(0.16);
  });

  it('is deterministic under the same seed and varies with the seed (paired kappa)', () => {
    const random = mulberry32(99);
    const pairs = Array.from({ length: 150 }, () => {
      const human = randomInt(random, 3);
      const judge = random() < 0.7 ? human : randomInt(random, 3);
      return { human, judge };
    });
    const kappa = (sample: typeof pairs): number =>
      cohensKappa(
        sample.map((p) => p.human),
        sample.map((p) => p.judge),
      );
    const first = bootstrapCI(pairs, kappa, { iterations: 500, random: mulberry32(2024) });
    const again = bootstrapCI(pairs, kappa, { iterations: 500, random: mulberry32(2024) });
    const other = bootstrapCI(pairs, kappa, { iterations: 500, random: mulberry32(2025) });
    expect(again).toEqual(first);
    expect(other.low).not.toBe(first.low);
    expect(first.estimate).toBeCloseTo(kappa(pairs), 12);
    expect(first.low).toBeLessThan(first.estimate);
    expect(first.high).toBeGreaterThan(first.estimate);
  });

  it('handles empty input and rejects bad options', () => {
    const random = mulberry32(1);
    expect(bootstrapCI([], mean, { random })).toEqual({ estimate: NaN, low: NaN, high: NaN, validIterations: 0 });
    expect(() => bootstrapCI([1], mean, { iterations: 0, random })).toThrow(RangeError);
    expect(() => bootstrapCI([1], mean, { iterations: 1.5, random })).toThrow(RangeError);
    expect(() => bootstrapCI([1], mean, { confidence: 1, random })).toThrow(RangeError);
  });
});
