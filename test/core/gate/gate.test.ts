import { describe, expect, it } from 'vitest';

import { activeLayers, combineVerdicts, runGate } from '../../../src/core/gate/gate.js';
import { fact, handModel, input, SETTINGS } from './fixtures.js';

const PREMIUM = 'The MediShield Life premium for ages 21 to 30 is $200 a year.';
const KB = [PREMIUM, 'Claims are made by your hospital.'];
/** Answers exactly when the best fact covers at least half of the question. */
const COVERAGE_MODEL = handModel({ coverage: 10 }, -5);

describe('runGate', () => {
  it('answers when the rules pass and the score reaches the threshold, with every verdict and the score', () => {
    const result = runGate(input('What is the MediShield Life premium for ages 21 to 30?', [fact(PREMIUM, 0.9)], KB), COVERAGE_MODEL);
    expect(result.pass).toBe(true);
    expect(result.verdicts.map((v) => v.layer)).toEqual(['entity', 'evidence', 'answerability', 'focus']);
    expect(result.answerability.features.coverage).toBe(1);
    expect(result.answerability.score).toBeCloseTo(1 / (1 + Math.exp(-5)), 10);
    expect(result.verdicts[2]).toMatchObject({ pass: true, threshold: 0.5, score: 0.993 });
    expect(result.answerability.model).toBe('hand@1');
  });

  it('refuses below the threshold and says why in words the user typed', () => {
    const result = runGate(input('When are Hospital Claims settled?', [fact(PREMIUM, 0.4)], KB), COVERAGE_MODEL);
    expect(result.pass).toBe(false);
    expect(result.verdicts[0]).toMatchObject({ layer: 'answerability', pass: false, code: 'low_coverage' });
    expect(result.verdicts[0]?.detail).toMatch(/"(Hospital|Claims|settled)"/);
    expect(result.verdicts[0]?.detail).not.toMatch(/"(claim|settl)"/);
  });

  it('puts a failing rule first and still runs and reports every layer', () => {
    const result = runGate(input('What does ADR-0050 say about the premium?', [fact(PREMIUM, 0.1)], KB), COVERAGE_MODEL);
    expect(result.pass).toBe(false);
    expect(result.verdicts.map((v) => v.layer)).toEqual(['entity', 'answerability', 'evidence', 'focus']);
    expect(result.verdicts[0]).toMatchObject({ code: 'unknown_entity', detail: 'the knowledge base never mentions "ADR-0050"' });
    expect(result.answerability.score).toBeGreaterThan(0);
  });

  it('refuses with no_evidence when nothing was retrieved', () => {
    const result = runGate(input('premium?', [], KB), handModel({}, 10));
    expect(result.verdicts[0]).toMatchObject({ layer: 'evidence', code: 'no_evidence' });
  });

  it('holds the score to the threshold in the settings, not the model default', () => {
    const at = (minAnswerability: number) =>
      runGate(
        input('What is the MediShield Life premium?', [fact(PREMIUM, 0.9)], KB, { settings: { ...SETTINGS, minAnswerability } }),
        handModel({}, 0),
      ).pass;
    expect(at(0.5)).toBe(true); // score exactly 0.5
    expect(at(0.51)).toBe(false);
  });

  it('runs each layer inside the hook, by name, in order', () => {
    const seen: string[] = [];
    runGate(input('premium?', [fact(PREMIUM, 0.9)], KB), COVERAGE_MODEL, (name, run) => {
      seen.push(name);
      return run();
    });
    expect(seen).toEqual(['entity', 'evidence', 'answerability', 'focus']);
  });

  it('adds the cosine rule only when that signal is chosen', () => {
    expect(activeLayers({ settings: SETTINGS })).toEqual(['entity', 'evidence', 'answerability', 'focus']);
    const settings = { ...SETTINGS, relevanceSignal: 'cosine' as const, minCosine: 0.6 };
    expect(activeLayers({ settings })).toEqual(['entity', 'evidence', 'relevance', 'answerability', 'focus']);
    const far = runGate(input('premium?', [{ ...fact(PREMIUM, 0.9), cosine: 0.59 }], KB, { settings }), handModel({}, 10));
    expect(far.verdicts[0]).toMatchObject({ layer: 'relevance', code: 'low_relevance', score: 0.59, threshold: 0.6 });
    const near = runGate(input('premium?', [{ ...fact(PREMIUM, 0.1), cosine: 0.62 }], KB, { settings }), handModel({}, 10));
    expect(near.pass).toBe(true);
  });
});

describe('combineVerdicts', () => {
  it('passes only when all pass', () => {
    expect(combineVerdicts([{ layer: 'a', pass: true, code: null, detail: '' }]).pass).toBe(true);
    expect(combineVerdicts([]).pass).toBe(true);
    expect(combineVerdicts([{ layer: 'a', pass: false, code: 'no_evidence', detail: '' }]).pass).toBe(false);
  });

  it('tiers a passing answer: high from the confident band up, medium (with what may be off) between threshold and band', () => {
    const model = { ...handModel({ coverage: 4 }, -2), confident: 0.8 };
    const ask = (question: string) => runGate(input(question, [fact(PREMIUM, 0.9)], KB), model);
    const full = ask('What is the MediShield Life premium for ages 21 to 30?'); // coverage 1: σ(2) ≈ 0.88
    expect(full).toMatchObject({ pass: true, confidence: 'high', doubts: [] });
    const partial = ask('What is the MediShield Life premium for dental work?'); // coverage below 1: σ < 0.8
    expect(partial.pass).toBe(true);
    expect(partial.answerability.score).toBeLessThan(0.8);
    expect(partial.confidence).toBe('medium');
    expect(partial.doubts.join('; ')).toMatch(/never mentions "dental", "work"/);
    const refused = ask('When are Hospital Claims settled?');
    expect(refused).toMatchObject({ pass: false, confidence: 'low', doubts: [] });
  });

  it('never puts the band below the threshold in force', () => {
    const model = { ...handModel({}, 0), confident: 0.3 };
    const atHalf = runGate(input('What is the MediShield Life premium?', [fact(PREMIUM, 0.9)], KB), model);
    expect(atHalf).toMatchObject({ pass: true, confidence: 'high' });
    const raised = runGate(
      input('What is the MediShield Life premium?', [fact(PREMIUM, 0.9)], KB, { settings: { ...SETTINGS, minAnswerability: 0.4 } }),
      { ...model, confident: 0.6 },
    );
    expect(raised).toMatchObject({ pass: true, confidence: 'medium' });
  });
});
