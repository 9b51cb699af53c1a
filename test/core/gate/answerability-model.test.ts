import { describe, expect, it } from 'vitest';

import { GATE_MODEL } from '../../../src/ask/gate-model.js';
import { answerabilityFeatures, FEATURE_NAMES } from '../../../src/core/gate/answerability-features.js';
import { modelRef, scoreAnswerability, sigmoid, validateModel } from '../../../src/core/gate/answerability-model.js';
import { explainLowScore } from '../../../src/core/gate/explain-score.js';
import type { Vocabulary } from '../../../src/core/gate/types.js';
import { fact, handModel, input } from './fixtures.js';

const PREMIUM = 'The MediShield Life premium for ages 21 to 30 is $200 a year.';
const KB = [PREMIUM, 'Claims are made by your hospital.'];

describe('scoreAnswerability', () => {
  it('is σ(intercept + Σ weight × (value − centre) / scale), each pull reported', () => {
    const model = {
      ...handModel({ coverage: 2, relevance: -1 }, 0.5),
      center: FEATURE_NAMES.map(() => 0.5),
      scale: FEATURE_NAMES.map(() => 0.25),
    };
    const values = answerabilityFeatures(input('premium ages', [fact(PREMIUM, 0.75)], KB)).values;
    const scored = scoreAnswerability(model, values);
    const pullCoverage = (2 * (values.coverage - 0.5)) / 0.25;
    const pullRelevance = (-1 * (0.75 - 0.5)) / 0.25;
    expect(scored.contributions.coverage).toBeCloseTo(pullCoverage, 12);
    expect(scored.contributions.relevance).toBeCloseTo(pullRelevance, 12);
    expect(scored.score).toBeCloseTo(sigmoid(0.5 + pullCoverage + pullRelevance), 12);
  });
  it('sigmoid is stable far from zero', () => {
    expect(sigmoid(-800)).toBe(0);
    expect(sigmoid(800)).toBe(1);
    expect(sigmoid(0)).toBe(0.5);
  });
});

describe('validateModel', () => {
  it('accepts the committed model', () => {
    expect(modelRef(GATE_MODEL)).toMatch(/^answerability-lr@\d+$/);
    expect(GATE_MODEL.threshold).toBeGreaterThan(0);
  });
  it('names what is wrong with a broken one', () => {
    expect(() => validateModel(null)).toThrow(/not a JSON object/);
    const good = handModel({});
    expect(() => validateModel({ ...good, features: ['relevance'] })).toThrow(/features must be exactly/);
    expect(() => validateModel({ ...good, weights: [1, 2] })).toThrow(/weights must hold/);
    expect(() => validateModel({ ...good, scale: good.scale.map(() => 0) })).toThrow(/scale must be positive/);
    expect(() => validateModel({ ...good, threshold: 1 })).toThrow(/threshold/);
  });
});

describe('explainLowScore', () => {
  const explain = (question: string, model: ReturnType<typeof handModel>, ranked = [fact(PREMIUM, 0.5)], vocabulary?: Vocabulary) => {
    const gateInput = input(question, ranked, KB, vocabulary ? { vocabulary } : {});
    const report = answerabilityFeatures(gateInput);
    return explainLowScore(scoreAnswerability(model, report.values), report, gateInput.question);
  };

  it('names the signal that pulled the score down most', () => {
    expect(explain('premium', handModel({ relevance: 5 }, 0), [fact(PREMIUM, 0.01)]).code).toBe('low_coverage'); // relevance pulled up, nothing down
    expect(explain('premium', handModel({ runnerUpRatio: -5 }), [fact(PREMIUM, 0.5, 1), fact(PREMIUM, 0.5, 2)])).toMatchObject({
      code: 'low_margin',
    });
    expect(
      explain('How much does a claim cost?', handModel({ answerTypeMissing: -5 }), [fact('Claims are made by your hospital.', 0.5)]),
    ).toEqual({
      code: 'answer_type_mismatch',
      detail: 'the question asks for an amount and none of the closest facts holds one',
    });
  });

  it('quotes words the KB never mentions as typed, never a stem; a name is an unknown entity', () => {
    const vocab = { has: (t: string) => !['franc', 'flu', 'medisaf'].includes(t), idf: () => 1, unseenIdf: () => 2 };
    const model = handModel({ unknownTerms: -5 });
    expect(explain('Is treatment in France covered?', model, undefined, vocab)).toEqual({
      code: 'low_coverage',
      detail: 'the knowledge base never mentions "France"',
    });
    expect(explain('Does MediSafe pay?', model, undefined, vocab)).toEqual({
      code: 'unknown_entity',
      detail: 'the knowledge base never mentions "MediSafe"',
    });
  });

  it('names a number the closest fact lacks', () => {
    expect(explain('Is the premium $300 for ages 21 to 30?', handModel({ numbersConflict: -5 }))).toEqual({
      code: 'low_coverage',
      detail: 'the closest fact does not mention "300"',
    });
  });
});
