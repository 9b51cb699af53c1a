import { describe, expect, it } from 'vitest';

import {
  groundingAuc,
  groundingCheckRef,
  recommendGroundingThreshold,
  sweepGrounding,
  type GroundingPoint,
} from '../../../src/core/calibrate/grounding-sweep.js';
import { renderTradeoffSvg } from '../../../src/core/calibrate/tradeoff-svg.js';
import { GROUNDING_WEIGHTS } from '../../../src/core/gate/grounding.js';

const supported = (support: number): GroundingPoint => ({ support, supported: true });
const unsupported = (support: number): GroundingPoint => ({ support, supported: false });

/**
 * Ten supported drafts: one citing nothing (0), then 0.55, 0.6, …, 0.95; so 90% pass up to 0.55 and 80% above it.
 * Five unsupported: 0, 0, 0.3, 0.5, 0.7, of which 0.55 flags four.
 */
const POINTS = [
  supported(0),
  ...[0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95].map(supported),
  ...[0, 0, 0.3, 0.5, 0.7].map(unsupported),
];

describe('the grounding threshold sweep', () => {
  it('counts, at each threshold, supported drafts passed (support reaching it) and unsupported ones flagged', () => {
    const at = (t: number) => sweepGrounding(POINTS, [t])[0];
    expect(at(0.55)).toEqual({ threshold: 0.55, passedSupported: 0.9, flaggedUnsupported: 0.8 });
    expect(at(0.56)).toEqual({ threshold: 0.56, passedSupported: 0.8, flaggedUnsupported: 0.8 });
    expect(at(0.71)).toEqual({ threshold: 0.71, passedSupported: 0.5, flaggedUnsupported: 1 });
  });

  it('recommends the highest threshold at which 90% of the supported drafts pass', () => {
    expect(recommendGroundingThreshold(sweepGrounding(POINTS))).toMatchObject({
      threshold: 0.55,
      passedSupported: 0.9,
      flaggedUnsupported: 0.8,
      meetsTarget: true,
    });
    expect(recommendGroundingThreshold(sweepGrounding(POINTS), 0.8).threshold).toBe(0.6);
  });

  it('says so when no threshold passes 90% (drafts that cite nothing score 0), and recommends the lowest', () => {
    const weak = [supported(0), supported(0), ...[0.6, 0.7, 0.8, 0.9, 0.9, 0.9, 0.9, 0.9].map(supported), unsupported(0.1)];
    const r = recommendGroundingThreshold(sweepGrounding(weak));
    expect(r).toMatchObject({ threshold: 0.01, passedSupported: 0.8, meetsTarget: false });
    expect(r.why).toContain('no threshold passes 90.0% of the supported drafts');
  });

  it('AUC: the chance a supported draft outscores an unsupported one, ties half', () => {
    expect(groundingAuc([supported(0.9), unsupported(0.1)])).toBe(1);
    expect(groundingAuc([supported(0.1), unsupported(0.9)])).toBe(0);
    expect(groundingAuc([supported(0.5), unsupported(0.5)])).toBe(0.5);
    // The nine above zero beat 0, 0, 0.3 and 0.5; of 0.7, five beat it, one ties, three lose. The supported 0 ties two.
    expect(groundingAuc(POINTS)).toBe((9 * 4 + 5 + 0.5 + 1) / 50);
  });

  it('names the check by its weights', () => {
    expect(groundingCheckRef()).toBe('grounding:kw30/cs0.3/neg0.5/mod0.7/cmp0.8');
    expect(groundingCheckRef({ ...GROUNDING_WEIGHTS, keyWord: 10 })).not.toBe(groundingCheckRef());
  });

  it('plots on the trade-off chart with its own words', () => {
    const svg = renderTradeoffSvg({
      title: 'Grounding',
      sweep: [{ threshold: 0.5, answeredRight: 0.9, abstained: 0.6 }],
      marks: [{ label: 'recommended', point: { threshold: 0.5, answeredRight: 0.9, abstained: 0.6 } }],
      pointWords: { y: 'passed', x: 'flagged' },
    });
    expect(svg).toContain('recommended: t=0.50 (90% passed, 60% flagged)');
  });
});
