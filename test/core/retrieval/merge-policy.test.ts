import { describe, expect, it } from 'vitest';

import { MAX_SEGMENTS, segmentsToMerge } from '../../../src/core/retrieval/merge-policy.js';

const live = (...sizes: number[]) => sizes.map((size) => ({ live: size, deleted: 0 }));

describe('which segments merge', () => {
  it('none while there are few and little is deleted', () => {
    expect(segmentsToMerge([])).toBeNull();
    expect(segmentsToMerge(live(1_000_000, 50, 30, 20, 10, 5))).toBeNull();
    expect(segmentsToMerge([{ live: 900, deleted: 100 }, ...live(5)])).toBeNull();
  });

  it('past the limit, the newest small segments together, never the large one', () => {
    expect(MAX_SEGMENTS).toBe(6);
    expect(segmentsToMerge(live(1_000_000, 50_000, 30_000, 20_000, 10_000, 5_000, 3_000))).toEqual({ from: 4, to: 6 });
    expect(segmentsToMerge(live(1_000_000, 50_000, 30_000, 20_000, 12_000, 11_000, 10_500))).toEqual({ from: 5, to: 6 });
    // Small segments (a few facts each) all merge together.
    expect(segmentsToMerge(live(1_000_000, 1, 1, 1, 1, 1, 1))).toEqual({ from: 1, to: 6 });
    // Equal large segments: only the two newest, so one merge never rewrites most of the index.
    expect(segmentsToMerge(live(1_000_000, 200_000, 200_000, 200_000, 200_000, 200_000, 200_000))).toEqual({ from: 5, to: 6 });
  });

  it('a segment mostly deleted is rewritten without its deleted facts', () => {
    expect(segmentsToMerge([{ live: 400, deleted: 600 }, ...live(10, 10)])).toEqual({ from: 0, to: 0 });
    expect(segmentsToMerge([...live(1000), { live: 1, deleted: 9 }])).toEqual({ from: 1, to: 1 });
  });
});
