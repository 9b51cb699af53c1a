import { describe, expect, it } from 'vitest';

import { answerabilityFeatures, FEATURE_NAMES, featureVector, numbersIn } from '../../../src/core/gate/answerability-features.js';
import { fact, input, SETTINGS, vocabulary } from './fixtures.js';

const PREMIUM = 'The MediShield Life premium for ages 21 to 30 is $200 a year.';
const CLAIMS = 'Claims are made by your hospital.';
const KB = [PREMIUM, CLAIMS, 'Premium subsidies are given to lower-income households.'];
const features = (question: string, ranked = [fact(PREMIUM, 0.8)], overrides = {}) =>
  answerabilityFeatures(input(question, ranked, KB, overrides));

describe('answerabilityFeatures', () => {
  it('returns every feature, in [0, 1], in model order', () => {
    const { values } = features('What is the MediShield Life premium for ages 21 to 30?');
    expect(Object.keys(values)).toEqual([...FEATURE_NAMES]);
    expect(featureVector(values)).toHaveLength(FEATURE_NAMES.length);
    for (const v of featureVector(values)) expect(v >= 0 && v <= 1).toBe(true);
  });

  it('relevance is the best score; runnerUpRatio the second over the first', () => {
    const { values } = features('premium', [fact(PREMIUM, 0.8, 1), fact(CLAIMS, 0.2, 2)]);
    expect(values.relevance).toBe(0.8);
    expect(values.runnerUpRatio).toBeCloseTo(0.25, 10);
  });

  it('coverage weighs rare terms most; coverageTop3 and coverageLead compare the runners-up', () => {
    const vocab = vocabulary(KB, { premium: 1, hospital: 3 });
    const q = 'premium hospital';
    const { values } = features(q, [fact(PREMIUM, 0.6, 1), fact(CLAIMS, 0.5, 2)], { vocabulary: vocab });
    expect(values.coverage).toBeCloseTo(0.25, 10);
    expect(values.coverageTop3).toBeCloseTo(0.75, 10);
    expect(values.coverageLead).toBeCloseTo(-0.5, 10);
  });

  it('rarestTermHeld and rareTermsHeld look at the rarest terms the KB knows', () => {
    const vocab = vocabulary(KB, { premium: 1, hospital: 5, subsidy: 3 });
    const held = features('premium subsidies hospital', [fact(CLAIMS, 0.5)], { vocabulary: vocab });
    expect(held.values.rarestTermHeld).toBe(1);
    expect(held.values.rareTermsHeld).toBe(0.5);
    const missed = features('premium subsidies hospital', [fact(PREMIUM, 0.5)], { vocabulary: vocab });
    expect(missed.values.rarestTermHeld).toBe(0);
    expect(missed.values.rareTermsHeld).toBe(0);
    expect(missed.missingFromBest).toEqual(['hospital', 'subsidies']);
  });

  it('unknownTerms is the IDF-weighted share the whole KB never mentions, named as the user typed it', () => {
    const vocab = { has: (t: string) => t !== 'flu', idf: (t: string) => (t === 'flu' ? 3 : 1), unseenIdf: () => 3 };
    const report = features('Do I stay home with the Flu?', [fact(PREMIUM, 0.5)], { vocabulary: vocab });
    expect(report.values.unknownTerms).toBeCloseTo(3 / 5, 10); // stay, home, flu (3) → 1 + 1 + 3
    expect(report.values.anyUnknownTerm).toBe(1);
    expect(report.unknownToKb).toEqual(['Flu']);
  });

  it('passageMargin compares passages, not facts: facts of one passage are not rivals', () => {
    const section = [0.9, 0.9, 0.9].map((s, i) => fact(PREMIUM, s, i + 1, 'booklet.md › 3.3'));
    const elsewhere = [0.8, 0.7].map((s, i) => fact(PREMIUM, s, i + 10));
    expect(features('premium', [...section, ...elsewhere]).values.passageMargin).toBeCloseTo((0.9 - 1.5 / 4) / 0.9, 10);
    const rivals = [0.9, 0.9, 0.9, 0.8, 0.7].map((s, i) => fact(PREMIUM, s, i + 1));
    expect(features('premium', rivals).values.passageMargin).toBeCloseTo((0.9 - 3.3 / 4) / 0.9, 10);
  });

  it('answerTypeMissing: a how-much question whose best fact holds no amount (unless switched off)', () => {
    expect(features('How much does a claim cost?', [fact(CLAIMS, 0.5)]).values.answerTypeMissing).toBe(1);
    expect(features('How much is the premium?', [fact(PREMIUM, 0.5)]).values.answerTypeMissing).toBe(0);
    expect(features('Tell me about claims', [fact(CLAIMS, 0.5)]).values.answerTypeMissing).toBe(0);
    expect(
      features('How much does a claim cost?', [fact(CLAIMS, 0.5)], { settings: { ...SETTINGS, checkAnswerType: false } }).values
        .answerTypeMissing,
    ).toBe(0);
  });

  it('numbersAgree / numbersConflict compare whole numbers, so 15 is not found in 2015', () => {
    const released = fact('The song was released on 25 September 2015.', 0.9);
    const conflict = features('What was released on 15 September 2015?', [released]);
    expect(conflict.values).toMatchObject({ numbersAgree: 0, numbersConflict: 1 });
    expect(conflict.missingNumbers).toEqual(['15']);
    expect(features('What was released on 25 September 2015?', [released]).values).toMatchObject({ numbersAgree: 1, numbersConflict: 0 });
    expect(features('What was released in September?', [released]).values).toMatchObject({ numbersAgree: 0, numbersConflict: 0 });
  });

  it('adjacentPairs and phraseCoverage reward the question phrase said together in the fact', () => {
    const together = fact('A Short-Term Visit Pass is cancelled when you leave.', 0.9);
    const apart = fact('Cancel your pass before the short visit ends, at the end of your term.', 0.9);
    const q = 'How do I cancel a Short-Term Visit Pass?';
    const a = features(q, [together]).values;
    const b = features(q, [apart]).values;
    expect(a.adjacentPairs).toBeGreaterThan(b.adjacentPairs);
    expect(a.phraseCoverage).toBeGreaterThan(b.phraseCoverage);
    expect(a.phraseCoverage).toBeCloseTo(4 / 5, 10); // short, term, visit, pass beside a neighbour; cancel alone
  });

  it('precision is the share of the fact that the question asks about', () => {
    expect(features('hospital claims', [fact(CLAIMS, 0.9)]).values.precision).toBeCloseTo(2 / 3, 10); // claim, made, hospital
  });

  it('knownSpecificity is the rarest known term’s IDF over that of a term the KB never mentions', () => {
    const vocab = { has: (t: string) => t !== 'acupunctur', idf: (t: string) => ({ claim: 1, limit: 1.5 })[t] ?? 6, unseenIdf: () => 6 };
    expect(
      features('What is the claim limit for acupuncture?', [fact(CLAIMS, 0.5)], { vocabulary: vocab }).values.knownSpecificity,
    ).toBeCloseTo(1.5 / 6, 10);
  });

  it('is all zeros when nothing was retrieved, but for what the question alone says', () => {
    const { values } = features('premium', []);
    const questionOnly = new Set(['unknownTerms', 'anyUnknownTerm', 'knownSpecificity']);
    expect(FEATURE_NAMES.filter((name) => !questionOnly.has(name) && values[name] !== 0)).toEqual([]);
  });
});

describe('numbersIn', () => {
  it('reads digits with thousands separators and number words', () => {
    expect([...numbersIn('1,500 extras, five minutes, 2.0 km, 2015')]).toEqual(['1500', '5', '2', '2015']);
  });
});
