import { describe, expect, it } from 'vitest';

import { chooseSamples, nearness, type SampleCandidate } from '../../../src/core/review/sampling-policy.js';

function candidates(
  n: number,
  decision: 'answer' | 'abstain',
  channel: string,
  reason: string | null,
  start: number,
  score = (i: number) => 0.3 + (i % 10) / 100,
): SampleCandidate[] {
  return Array.from({ length: n }, (_, i) => ({
    id: start + i,
    decision,
    channel,
    reason,
    verdicts:
      decision === 'abstain'
        ? [{ layer: 'margin', pass: false, code: 'low_margin', detail: '', score: score(i), threshold: 0.2 }]
        : [{ layer: 'relevance', pass: true, code: null, detail: '', score: score(i), threshold: 0.3 }],
  }));
}

const POOL = [
  ...candidates(1000, 'answer', 'slack', null, 1),
  ...candidates(400, 'abstain', 'slack', 'low_margin', 2001),
  ...candidates(100, 'abstain', 'teams', 'low_coverage', 3001),
];
const POLICY = { answeredRate: 0.05, abstainedRate: 0.2, maxPerRun: 1000, seed: 42 };

describe('chooseSamples', () => {
  it('samples each stratum at its rate', () => {
    const picked = chooseSamples(POOL, new Set(), POLICY);
    const count = (stratum: string) => picked.filter((p) => p.stratum === stratum).length;
    expect(count('answer|slack|none')).toBe(50);
    expect(count('abstain|slack|low_margin')).toBe(80);
    expect(count('abstain|teams|low_coverage')).toBe(20);
  });

  it('is deterministic under a seed and varies with it', () => {
    const a = chooseSamples(POOL, new Set(), POLICY);
    expect(chooseSamples(POOL, new Set(), POLICY)).toEqual(a);
    const tiny = { ...POLICY, answeredRate: 0.5, abstainedRate: 0.5 };
    const flat = POOL.map((c) => ({ ...c, verdicts: [] }));
    expect(chooseSamples(flat, new Set(), { ...tiny, seed: 1 })).not.toEqual(chooseSamples(flat, new Set(), { ...tiny, seed: 2 }));
  });

  it('never picks an interaction twice', () => {
    const first = chooseSamples(POOL, new Set(), POLICY);
    const second = chooseSamples(POOL, new Set(first.map((p) => p.id)), POLICY);
    expect(second.filter((p) => first.some((f) => f.id === p.id))).toEqual([]);
    expect(second.length).toBeGreaterThan(0);
  });

  it('takes near calls first: the scores closest to their thresholds', () => {
    // Relevance scores 0.30–0.39 against 0.3: the ones at 0.30 are the nearest.
    const picked = chooseSamples(candidates(100, 'answer', 'http', null, 1), new Set(), { ...POLICY, answeredRate: 0.1 });
    expect(picked.map((p) => p.nearness)).toEqual(new Array(10).fill(0));
  });

  it('shares maxPerRun fairly across strata, best items of each first', () => {
    const picked = chooseSamples(POOL, new Set(), { ...POLICY, maxPerRun: 30 });
    const by = (s: string) => picked.filter((p) => p.stratum === s).length;
    expect(picked).toHaveLength(30);
    expect([by('answer|slack|none'), by('abstain|slack|low_margin'), by('abstain|teams|low_coverage')]).toEqual([10, 10, 10]);
  });

  it('per-reason rates override the decision rate', () => {
    const picked = chooseSamples(POOL, new Set(), { ...POLICY, rateOverrides: { low_coverage: 1 } });
    expect(picked.filter((p) => p.stratum === 'abstain|teams|low_coverage')).toHaveLength(100);
  });
});

describe('nearness', () => {
  it('is the relative distance of the deciding score from its threshold; null without a score', () => {
    expect(
      nearness({
        decision: 'abstain',
        verdicts: [{ layer: 'coverage', pass: false, code: 'low_coverage', detail: '', score: 0.36, threshold: 0.45 }],
      }),
    ).toBeCloseTo(0.2, 10);
    expect(nearness({ decision: 'abstain', verdicts: [{ layer: 'entity', pass: false, code: 'unknown_entity', detail: '' }] })).toBeNull();
  });
});
