import { describe, expect, it } from 'vitest';

import { reciprocalRankFusion, topByCosine } from '../../../src/core/retrieval/fusion.js';

describe('reciprocalRankFusion', () => {
  it('sums 1/(60 + rank) over rankings', () => {
    const fused = reciprocalRankFusion([
      [1, 2, 3],
      [3, 1],
    ]);
    expect(fused.map((h) => h.key)).toEqual([1, 3, 2]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 12);
  });
  it('a key found by one ranking only still appears', () => {
    expect(
      reciprocalRankFusion([[1], [9]])
        .map((h) => h.key)
        .sort(),
    ).toEqual([1, 9]);
  });
});

describe('topByCosine', () => {
  const v = (...xs: number[]) => {
    const n = Math.hypot(...xs);
    return Float32Array.from(xs.map((x) => x / n));
  };
  const vectors = new Map([
    [1, v(1, 0, 0)],
    [2, v(1, 1, 0)],
    [3, v(0, 0, 1)],
  ]);
  it('ranks by cosine and honours exclusions', () => {
    expect(topByCosine(vectors, v(1, 0.1, 0), 2).map((h) => h.key)).toEqual([1, 2]);
    expect(topByCosine(vectors, v(1, 0.1, 0), 2, new Set([1])).map((h) => h.key)).toEqual([2, 3]);
    expect(topByCosine(vectors, v(0, 0, 1), 1)[0]!.cosine).toBeCloseTo(1, 6);
  });
});
