import { describe, expect, it } from 'vitest';

import {
  answerTypeLayer,
  coverage,
  coverageLayer,
  entityLayer,
  margin,
  marginLayer,
  noEvidenceLayer,
  relevanceLayer,
} from '../../../src/core/gate/layers.js';
import { fact, input, THRESHOLDS, vocabulary } from './fixtures.js';

const PREMIUM = 'The MediShield Life premium for ages 21 to 30 is $200 a year.';
const KB = [PREMIUM, 'Premium subsidies are given to lower-income households.', 'Claims are made by your hospital.'];

describe('noEvidenceLayer', () => {
  it('refuses when nothing was retrieved', () => {
    const verdict = noEvidenceLayer(input('What is the premium?', [], KB));
    expect(verdict).toMatchObject({ pass: false, code: 'no_evidence', layer: 'evidence' });
  });
  it('passes with any evidence', () => {
    expect(noEvidenceLayer(input('What is the premium?', [fact(PREMIUM, 0.9)], KB)).pass).toBe(true);
  });
});

describe('relevanceLayer (L2R: similarity × confidence against α)', () => {
  it('uses cosine × confidence against its own α when asked to and embeddings are present', () => {
    const withCosine = { ...fact(PREMIUM, 0.1), cosine: 0.62 };
    const thresholds = { ...THRESHOLDS, relevanceSignal: 'cosine' as const, minCosine: 0.6 };
    expect(relevanceLayer(input('q', [withCosine], KB, { thresholds }))).toMatchObject({ pass: true, score: 0.62, threshold: 0.6 });
    expect(relevanceLayer(input('q', [{ ...withCosine, cosine: 0.59 }], KB, { thresholds }))).toMatchObject({
      pass: false,
      code: 'low_relevance',
    });
    // Without embeddings the lexical score and α apply, whatever the setting.
    expect(relevanceLayer(input('q', [fact(PREMIUM, 0.1)], KB, { thresholds }))).toMatchObject({ pass: false, threshold: 0.3 });
  });
  it('passes at α and refuses just below it', () => {
    expect(relevanceLayer(input('q', [fact(PREMIUM, 0.3)], KB))).toMatchObject({ pass: true, score: 0.3, threshold: 0.3 });
    expect(relevanceLayer(input('q', [fact(PREMIUM, 0.299)], KB))).toMatchObject({ pass: false, code: 'low_relevance' });
  });
  it('uses the best of the evidence', () => {
    expect(relevanceLayer(input('q', [fact(PREMIUM, 0.1), fact(PREMIUM, 0.8, 2)], KB)).score).toBe(0.8);
  });
});

describe('entityLayer', () => {
  it('refuses an identifier the KB never mentions', () => {
    const verdict = entityLayer(input('What does ADR-0050 say about premiums?', [fact(PREMIUM, 0.5)], KB));
    expect(verdict).toMatchObject({ pass: false, code: 'unknown_entity' });
    expect(verdict.detail).toContain('"ADR-0050"');
  });
  it('knows an identifier the KB holds, whatever its separators', () => {
    const vocab = { has: (t: string) => ['#adr0050', 'adr', '0050', 'premium'].includes(t), idf: () => 1 };
    expect(entityLayer(input('What does ADR 0050 say?', [fact(PREMIUM, 0.5)], KB, { vocabulary: vocab })).pass).toBe(true);
  });
  it('refuses a plan name the KB never mentions', () => {
    const verdict = entityLayer(input('Does the Platinum Rider cover premiums?', [fact(PREMIUM, 0.5)], KB));
    expect(verdict).toMatchObject({ pass: false, code: 'unknown_entity' });
    expect(verdict.detail).toMatch(/platinum/);
  });
  it('accepts a defined acronym when the KB holds either form', () => {
    const kb = ['Your Central Depository account statement lists your shares.'];
    expect(entityLayer(input('Why is my Central Depository (CDP) statement late?', [fact(kb[0] as string, 0.5)], kb)).pass).toBe(true);
  });
  it('ignores the capitalised first word of a sentence', () => {
    expect(entityLayer(input('Premiums? Tell me about premium subsidies.', [fact(PREMIUM, 0.5)], KB)).pass).toBe(true);
  });
  it('can be switched off', () => {
    const verdict = entityLayer(input('What does ADR-0050 say?', [], KB, { thresholds: { ...THRESHOLDS, checkEntities: false } }));
    expect(verdict.pass).toBe(true);
  });
});

describe('coverage', () => {
  it('is the IDF-weighted share of question terms in the best fact', () => {
    const q = input('premium hospital', [fact(PREMIUM, 0.5)], KB, { vocabulary: vocabulary(KB, { premium: 3, hospital: 1 }) });
    expect(coverage(q, q.evidence.slice(0, 1))).toBeCloseTo(0.75, 10);
  });
  it('refuses when the best fact misses the rare, specific terms', () => {
    const q = input('When is the premium payment deadline?', [fact(PREMIUM, 0.5)], KB, {
      vocabulary: vocabulary(KB, { deadlin: 6, payment: 2, premium: 1 }),
    });
    const verdict = coverageLayer(q);
    expect(verdict).toMatchObject({ pass: false, code: 'low_coverage' });
    expect(verdict.detail).toContain('"deadlin"');
  });
  it('passes when the best fact holds the question', () => {
    expect(coverageLayer(input('What is the MediShield Life premium for ages 21 to 30?', [fact(PREMIUM, 0.9)], KB)).pass).toBe(true);
  });
});

describe('margin', () => {
  it('is (s1 − mean(s2..s5)) / s1', () => {
    const ranked = [0.8, 0.4, 0.4, 0.2, 0.0].map((s, i) => fact(PREMIUM, s, i + 1));
    expect(margin(ranked)).toBeCloseTo((0.8 - 0.25) / 0.8, 10);
  });
  it('refuses when no fact stands out', () => {
    const ranked = [0.5, 0.48, 0.47, 0.46, 0.45].map((s, i) => fact(PREMIUM, s, i + 1));
    expect(marginLayer(input('q', ranked, KB))).toMatchObject({ pass: false, code: 'low_margin' });
  });
  it('passes a lone strong match', () => {
    expect(marginLayer(input('q', [fact(PREMIUM, 0.5)], KB))).toMatchObject({ pass: true, score: 1 });
  });
  it('counts the facts of one section (same source locator) as one candidate, not as rivals', () => {
    // A heading that restates the question lifts every fact below it equally.
    const section = [0.9, 0.9, 0.9].map((s, i) => ({ ...fact(PREMIUM, s, i + 1), source: 'booklet.md › 3.3 Who pays?' }));
    const elsewhere = [0.8, 0.7].map((s, i) => fact(PREMIUM, s, i + 10));
    const verdict = marginLayer(input('q', [...section, ...elsewhere], KB));
    expect(verdict).toMatchObject({ pass: true });
    expect(verdict.score).toBeCloseTo((0.9 - 1.5 / 4) / 0.9, 3);
    // The same scores from different passages do not stand out.
    const rivals = [0.9, 0.9, 0.9, 0.8, 0.7].map((s, i) => fact(PREMIUM, s, i + 1));
    expect(marginLayer(input('q', rivals, KB))).toMatchObject({ pass: false, code: 'low_margin' });
  });
});

describe('answerTypeLayer', () => {
  it('refuses a how-much question whose evidence has no amount', () => {
    const verdict = answerTypeLayer(input('How much does a claim cost?', [fact('Claims are made by your hospital.', 0.5)], KB));
    expect(verdict).toMatchObject({ pass: false, code: 'answer_type_mismatch' });
  });
  it('passes a how-much question with an amount in the evidence', () => {
    expect(answerTypeLayer(input('How much is the premium?', [fact(PREMIUM, 0.5)], KB)).pass).toBe(true);
  });
  it('refuses a when question whose evidence has no date or time', () => {
    const verdict = answerTypeLayer(
      input('When are premium subsidies paid?', [fact('Premium subsidies help lower-income households.', 0.5)], KB),
    );
    expect(verdict.code).toBe('answer_type_mismatch');
  });
  it('refuses a how-long question without a duration', () => {
    expect(answerTypeLayer(input('How long does a claim take?', [fact('Claims are made by your hospital.', 0.5)], KB)).pass).toBe(false);
    expect(answerTypeLayer(input('How long does a claim take?', [fact('Claims take 14 working days.', 0.5)], KB)).pass).toBe(true);
  });
  it('does not judge questions that expect nothing in particular', () => {
    expect(answerTypeLayer(input('Tell me about claims', [fact('Claims are made by your hospital.', 0.5)], KB)).pass).toBe(true);
  });
});
