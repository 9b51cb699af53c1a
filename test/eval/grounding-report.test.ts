import { describe, expect, it } from 'vitest';

import { groundingReport } from '../../src/eval/grounding/grounding-report.js';
import type { CheckOutcome, ScoredResponse } from '../../src/eval/grounding/score-response.js';

const pass: CheckOutcome = { pass: true, code: null, detail: 'ok' };
const fail = (code = 'ungrounded'): CheckOutcome => ({ pass: false, code, detail: `failed: ${code}` });
const answer = (
  id: string,
  supported: boolean | null,
  support: number,
  lexical = support >= 0.5 ? pass : fail(),
  entailment = pass,
): ScoredResponse => ({
  id,
  supported,
  configuration: 'BASIC_RAG conservative',
  declined: false,
  lexical,
  entailment,
  pass: lexical.pass && entailment.pass,
  support,
  supportAnyEvidence: support,
  threshold: 0.5,
  weakestClaim: { claim: 'It is 25 days.', support, adds: ['25'] },
});

describe('groundingReport', () => {
  it('combines the checks: flagged when either fails, scored by the lexical support or 0 when entailment failed', () => {
    const report = groundingReport([
      answer('s1', true, 0.9),
      answer('s2', true, 0.6, pass, fail()), // entailment flags a supported answer: combined score 0
      answer('u1', false, 0.7), // both checks pass an unsupported answer
      answer('u2', false, 0.2),
      answer('u3', false, 0.8, pass, fail('llm_unavailable')), // a model failure flags (fail closed)
      answer('x', null, 0.4), // unlabelled: counted in n and flagged, not in the rates
      { id: 'd', supported: false, configuration: 'BASIC_RAG conservative', declined: true, declineWhy: 'opens by declining' },
    ]);
    expect(report.summary).toMatchObject({ rows: 7, declined: 1, n: 6, labelled: 5, supported: 2, unsupported: 3, unlabelled: 1 });
    expect(report.checks.lexical).toMatchObject({ unsupportedFlagged: 1 / 3, supportedPassed: 1, flagged: 2 });
    // lexical AUC: supported {0.9, 0.6} vs unsupported {0.7, 0.2, 0.8} → wins 3 + 1 = 4 of 6
    expect(report.checks.lexical.auc).toBeCloseTo(4 / 6, 12);
    expect(report.checks.entailment).toMatchObject({ unsupportedFlagged: 1 / 3, supportedPassed: 0.5, modelErrors: 1 });
    // combined: supported {0.9, 0} vs unsupported {0.7, 0.2, 0}: 0.9 wins 3; 0 ties one (0.5) → 3.5 of 6
    expect(report.summary).toMatchObject({ unsupportedFlagged: 2 / 3, supportedPassed: 0.5, flagged: 4 });
    expect(report.summary.auc).toBeCloseTo(3.5 / 6, 12);
    expect(report.summary.confusion).toEqual({ supported: { passed: 1, flagged: 1 }, unsupported: { passed: 1, flagged: 2 } });
    expect(report.items.find((i) => i.id === 's2')).toEqual({
      id: 's2',
      supported: true,
      configuration: 'BASIC_RAG conservative',
      declined: false,
      pass: { lexical: true, entailment: false, combined: false },
      support: 0.6,
      supportAnyEvidence: 0.6,
      weakestClaim: { claim: 'It is 25 days.', support: 0.6, adds: ['25'] },
      detail: 'failed: ungrounded',
    });
    expect(report.items.at(-1)).toEqual({
      id: 'd',
      supported: false,
      configuration: 'BASIC_RAG conservative',
      declined: true,
      declineWhy: 'opens by declining',
      pass: null,
      support: null,
      supportAnyEvidence: null,
      weakestClaim: null,
    });
    // Over the six labelled: a decline abstains; a withheld answer is refused, or quoted (right only when supported);
    // a check failing as a model failure (u3) refuses even with the fallback.
    const sixth = (k: number) => Math.round((k / 6) * 10_000) / 10_000;
    expect(report.outcomes).toEqual([
      {
        configuration: 'BASIC_RAG conservative',
        n: 6,
        alone: { answeredRight: sixth(2), abstainedRight: sixth(1), answeredWrong: sixth(3) },
        checksRefuse: { answeredRight: sixth(1), abstainedRight: sixth(3), answeredWrong: sixth(1) },
        checksFallback: { answeredRight: sixth(2), abstainedRight: sixth(2), answeredWrong: sixth(2), quoted: sixth(2) },
      },
    ]);
  });
});
