import { describe, expect, it } from 'vitest';

import { buildAgreementReport, type LabelRow } from '../../../src/core/review/agreement-report.js';

const rows = (annotator: string, task: string, values: Record<number, string>): LabelRow[] =>
  Object.entries(values).map(([id, value]) => ({ sampleId: Number(id), task, annotator, value }));

// Items 1–10: human majority c c c c c c i i i i; the judge says c c c c c i i i i c.
// Item 11: the two humans tie (c / i), so it has no majority and is left out of judge–human statistics.
const H1 = {
  1: 'correct',
  2: 'correct',
  3: 'correct',
  4: 'correct',
  5: 'correct',
  6: 'correct',
  7: 'incorrect',
  8: 'incorrect',
  9: 'incorrect',
  10: 'incorrect',
  11: 'correct',
};
const H2 = { 1: 'correct', 2: 'correct', 3: 'correct', 4: 'correct', 11: 'incorrect' };
const JUDGE = {
  1: 'correct',
  2: 'correct',
  3: 'correct',
  4: 'correct',
  5: 'correct',
  6: 'incorrect',
  7: 'incorrect',
  8: 'incorrect',
  9: 'incorrect',
  10: 'correct',
  11: 'correct',
};
const LABELS = [...rows('slack:U1', 'abstention', H1), ...rows('slack:U2', 'abstention', H2), ...rows('llm:abst@3', 'abstention', JUDGE)];

describe('buildAgreementReport', () => {
  const report = buildAgreementReport(LABELS, { seed: 7, iterations: 500 });
  const task = report.tasks.find((t) => t.task === 'abstention')!;
  const judge = task.judges[0]!;

  it("judge–human Cohen's kappa matches the hand computation", () => {
    // po = 8/10 = 0.8; both raters put 6 of 10 in "correct": pe = 0.6² + 0.4² = 0.52;
    // kappa = (0.8 − 0.52) / (1 − 0.52) = 0.28 / 0.48 = 0.58333…
    expect(judge.judge).toBe('llm:abst@3');
    expect(judge.items).toBe(10);
    expect(judge.noMajority).toBe(1);
    expect(judge.percentAgreement).toBe(0.8);
    expect(judge.cohensKappa).toBeCloseTo(0.5833, 4);
    expect(judge.confusion).toEqual({
      categories: ['correct', 'incorrect'],
      matrix: [
        [5, 1],
        [1, 3],
      ],
    });
    expect(judge.kappaCI.low).toBeLessThan(0.5833);
    expect(judge.kappaCI.high).toBeGreaterThan(0.5833);
    expect(judge.perClass[0]).toMatchObject({ category: 'correct', support: 6, precision: 0.8333, recall: 0.8333 });
  });

  it('lists each disagreement with the judge label, the human majority and every human label', () => {
    expect(judge.disagreements).toEqual([
      { sampleId: 6, judge: 'incorrect', humanMajority: 'correct', humans: { 'slack:U1': 'correct' } },
      { sampleId: 10, judge: 'correct', humanMajority: 'incorrect', humans: { 'slack:U1': 'incorrect' } },
    ]);
  });

  it('human–human agreement: pairs, Cohen between the two most active, Fleiss when counts are equal', () => {
    // Items 1–4 and 11 have two human labels; they agree on 4 of 5 pairs.
    // U1 says "correct" on all five: pe = 1 × 0.8 = 0.8 = po, so kappa = 0.
    expect(task.humans).toEqual(['slack:U1', 'slack:U2']);
    expect(task.humanHuman).toMatchObject({
      items: 5,
      percentAgreement: 0.8,
      cohensKappa: { between: ['slack:U1', 'slack:U2'], items: 5, kappa: 0 },
    });
    expect(task.humanHuman.fleissKappa).toEqual(expect.any(Number));
  });

  it('is deterministic under its seed', () => {
    expect(buildAgreementReport(LABELS, { seed: 7, iterations: 500 })).toEqual(report);
  });

  it('an ordinal task gets weighted kappas and ordinal alpha; a near miss costs less than a far one', () => {
    const humans = rows('cli:ann', 'dontknowness', { 1: '1', 2: '2', 3: '3', 4: '4', 5: '5', 6: '5' });
    const near = buildAgreementReport([...humans, ...rows('llm:dk@1', 'dontknowness', { 1: '1', 2: '2', 3: '3', 4: '5', 5: '5', 6: '4' })])
      .tasks[0]!.judges[0]!;
    const far = buildAgreementReport([...humans, ...rows('llm:dk@1', 'dontknowness', { 1: '1', 2: '2', 3: '3', 4: '1', 5: '5', 6: '1' })])
      .tasks[0]!.judges[0]!;
    expect(near.percentAgreement).toBe(far.percentAgreement); // the same number of misses
    expect(near.weightedKappa!.quadratic!).toBeGreaterThan(far.weightedKappa!.quadratic!);
    expect(near.weightedKappa!.linear!).toBeGreaterThan(far.weightedKappa!.linear!);
    expect(near.krippendorffAlpha!).toBeGreaterThan(far.krippendorffAlpha!);
  });

  it('ignores labels that are not outcomes of their task, and tasks nobody labelled', () => {
    const r = buildAgreementReport([...LABELS, { sampleId: 1, task: 'abstention', annotator: 'slack:U3', value: 'maybe' }]);
    expect(r.tasks.map((t) => t.task)).toEqual(['abstention']);
    expect(r.tasks[0]!.humans).toEqual(['slack:U1', 'slack:U2']);
  });
});
