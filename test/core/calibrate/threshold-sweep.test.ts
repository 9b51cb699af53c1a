import { describe, expect, it } from 'vitest';

import { confidentBand, recommendThreshold, sweepThresholds, type CalibrationPoint } from '../../../src/core/calibrate/threshold-sweep.js';
import { renderTradeoffSvg } from '../../../src/core/calibrate/tradeoff-svg.js';

const answerable = (score: number, right = true): CalibrationPoint => ({ score, kind: 'answerable', right, ruleRefused: false });
const refusable = (score: number, ruleRefused = false): CalibrationPoint => ({ score, kind: 'refusable', right: false, ruleRefused });

/**
 * A synthetic score set whose optimum is known by hand: refusable scores 0.1, 0.2,
 * 0.3, 0.4, so abstention first reaches 75% at t = 0.31 (0.1, 0.2 and 0.3 fall
 * below it); at that threshold the right answers scored 0.5 and 0.6 stay answered,
 * 0.25 does not, and 0.9 was answered wrongly.
 */
const POINTS = [
  refusable(0.1),
  refusable(0.2),
  refusable(0.3),
  refusable(0.4),
  answerable(0.5),
  answerable(0.6),
  answerable(0.25),
  answerable(0.9, false),
];

describe('sweepThresholds', () => {
  it('counts, at each threshold, the right answers kept and the refusals made', () => {
    const at = (t: number) => sweepThresholds(POINTS, [t])[0];
    expect(at(0.3)).toEqual({ threshold: 0.3, answeredRight: 0.5, abstained: 0.5 });
    expect(at(0.31)).toEqual({ threshold: 0.31, answeredRight: 0.5, abstained: 0.75 });
    expect(at(0.05)).toEqual({ threshold: 0.05, answeredRight: 0.75, abstained: 0 });
    expect(at(0.95)).toEqual({ threshold: 0.95, answeredRight: 0, abstained: 1 });
  });
  it('sweeps a 0.01 grid with abstention rising and answers falling', () => {
    const sweep = sweepThresholds(POINTS);
    expect(sweep.map((p) => p.threshold)).toEqual(Array.from({ length: 99 }, (_, i) => (i + 1) / 100));
    for (let i = 1; i < sweep.length; i++) {
      expect(sweep[i]!.abstained).toBeGreaterThanOrEqual(sweep[i - 1]!.abstained);
      expect(sweep[i]!.answeredRight).toBeLessThanOrEqual(sweep[i - 1]!.answeredRight);
    }
  });
});

describe('recommendThreshold', () => {
  it('returns the known optimum: the lowest threshold reaching the target abstention', () => {
    expect(recommendThreshold(sweepThresholds(POINTS), 0.75)).toMatchObject({
      threshold: 0.31,
      answeredRight: 0.5,
      abstained: 0.75,
      meetsTarget: true,
    });
    expect(recommendThreshold(sweepThresholds(POINTS), 0.5)).toMatchObject({ threshold: 0.21, meetsTarget: true });
  });
  it('says when no threshold reaches the target', () => {
    // A refusable question a rule never refuses and that outscores every threshold.
    const stuck = [refusable(0.999), refusable(0.1), answerable(0.8)];
    const r = recommendThreshold(sweepThresholds(stuck), 0.75);
    expect(r.meetsTarget).toBe(false);
    expect(r.abstained).toBe(0.5);
    expect(r.why).toMatch(/no threshold reaches 75\.0%/);
  });
  it('counts a rule refusal as refused at every threshold', () => {
    expect(sweepThresholds([refusable(0.99, true)], [0.5])[0]?.abstained).toBe(1);
  });
});

describe('renderTradeoffSvg', () => {
  it('draws one point per threshold and names the marks', () => {
    const sweep = sweepThresholds(POINTS);
    const svg = renderTradeoffSvg({
      title: 'KB "a" & <b>',
      sweep,
      marks: [{ label: 'recommended', point: sweep[30]! }],
      targetAbstention: 0.75,
    });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<title>KB &quot;a&quot; &amp; &lt;b&gt;</title>');
    expect(svg.match(/<polyline points="([^"]+)"/)?.[1]?.split(' ')).toHaveLength(99);
    expect(svg).toContain('recommended: t=0.31 (50% answered, 75% abstained)');
    expect(svg).toContain('target 75%');
  });
});

describe('confidentBand', () => {
  const right = (score: number): CalibrationPoint => ({ score, kind: 'answerable', right: true, ruleRefused: false });
  it('is the highest score below which at most a fifth of the right answers would carry the caveat', () => {
    const points = [0.55, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.92, 0.95, 0.97].map(right);
    // 2 of 10 right answers below 0.61 (0.55, 0.6); a third would come in at 0.71.
    expect(confidentBand(points, 0.5)).toBe(0.7);
  });
  it('counts only right answers above the threshold, and never goes below the threshold', () => {
    const refusable: CalibrationPoint = { score: 0.95, kind: 'refusable', right: false, ruleRefused: false };
    const wrong: CalibrationPoint = { score: 0.6, kind: 'answerable', right: false, ruleRefused: false };
    expect(confidentBand([right(0.4), right(0.9), refusable, wrong], 0.8)).toBe(0.9);
    expect(confidentBand([], 0.6)).toBe(0.6);
  });
});
