import { describe, expect, it } from 'vitest';

import { claimGap, readSentence, sameFamily, splitClaims } from '../../../src/core/gate/claim-support.js';
import { checkGrounding } from '../../../src/core/gate/grounding.js';

const gap = (claim: string, sentence: string) => claimGap(claim, readSentence(sentence));
const support = (answer: string, facts: string[], question?: string) =>
  checkGrounding(
    { answer, citations: facts.map((_f, i) => i + 1) },
    facts.map((text) => ({ text })),
    question ? { question } : {},
  );

describe('what a claim adds to its evidence, by kind', () => {
  it('numbers: an amount the sentence does not state, whatever its formatting', () => {
    expect(gap('The premium is $1,150 a year.', 'The premium is 1150 dollars a year.').specifics).toEqual([]);
    expect(gap('The premium is $1,250 a year.', 'The premium is $1,150 a year.').specifics).toEqual(['1250']);
    const verdict = support('The premium is $1,250 a year.', ['The premium is $1,150 a year.']);
    expect(verdict).toMatchObject({ pass: false, code: 'ungrounded', support: 0 });
    expect(verdict.detail).toContain('"1250"');
  });

  it('dates: a month or a year the sentence does not state', () => {
    expect(gap('Apply by 31 March 2025.', 'Apply by 31 March 2025.').specifics).toEqual([]);
    expect(gap('Apply by 31 March.', 'Apply by 31 December.').specifics).toEqual(['mar']);
    expect(gap('Apply by 31 December 2026.', 'Apply by 31 December 2025.').specifics).toEqual(['2026']);
    expect(support('Apply by 31 March.', ['Apply by 31 December.']).pass).toBe(false);
  });

  it('names and identifiers: a form or a body the cited facts never name', () => {
    expect(gap('Submit form MC-22.', 'Submit form MC22 to the hospital.').specifics).toEqual([]);
    expect(gap('Submit form MC-23.', 'Submit form MC-22.').specifics).toContain('mc23');
    const named = support('Claims are filed by the hospital and checked by Medisafe Corporation.', [
      'Claims are filed by the hospital on behalf of the patient.',
    ]);
    expect(named.pass).toBe(false);
    expect(named.detail).toContain('Medisafe');
  });

  it('negation: "not" against a sentence that affirms, and the reverse; a leading "No," answers, it negates nothing', () => {
    expect(gap('Platform workers are not required to contribute.', 'Platform workers are required to contribute.').negation).toBe(true);
    expect(gap('Platform workers are required to contribute.', 'Platform workers are not required to contribute.').negation).toBe(true);
    expect(gap('No, the ERS does not affect the BRS.', 'The ERS does not affect the BRS.').negation).toBe(false);
    const flipped = support('Self-employed persons do not need to contribute to MediSave.', [
      'Self-employed persons need to contribute to MediSave.',
    ]);
    const kept = support('Self-employed persons need to contribute to MediSave.', [
      'Self-employed persons need to contribute to MediSave.',
    ]);
    expect(flipped.support).toBeLessThan(kept.support);
    expect(flipped.claims[0]?.unsupported).toContain('a negation');
  });

  it('modality: "must" against "may", and the reverse', () => {
    expect(gap('You must apply for a Re-Entry Permit.', 'You may apply for a Re-Entry Permit.').modality).toBe(true);
    expect(gap('You may apply for a Re-Entry Permit.', 'You must apply for a Re-Entry Permit.').modality).toBe(true);
    expect(gap('You must apply for a Re-Entry Permit.', 'You must apply for a Re-Entry Permit.').modality).toBe(false);
  });

  it('comparatives and bounds: "at least" or "more" the sentence does not state', () => {
    expect(gap('You need at least three working days.', 'You need three working days.').comparatives).toEqual(['at least']);
    expect(gap('You need at least three working days.', 'Allow at least three working days.').comparatives).toEqual([]);
  });

  it('content words: in any word form, never a word the sentence holds in another form', () => {
    expect(gap('The removal of endorsements makes it faster.', 'ICA removed the endorsement to be fast.').words).toEqual([
      'makes',
      'faster',
    ]);
    expect(gap('You are eligible for a grant.', 'Eligibility for the grant depends on income.').words).toEqual([]);
    expect(sameFamily('distribut', 'distribution')).toBe(true);
    expect(sameFamily('contribut', 'contract')).toBe(false);
    const offTopic = support('Expense claims are submitted through the hospital.', [
      'MediShield Life claims are submitted by the hospital.',
    ]);
    expect(offTopic.claims[0]?.unsupported).toContain('"Expense"');
  });
});

describe('the answer graded as a whole', () => {
  it('is as strong as its weakest claim, and names that claim when it withholds the answer', () => {
    const facts = ['Your opt-in status is permanent and applies to all platform operators you work with.'];
    const strong = support('Your opt-in status is permanent. It applies to all platform operators you work with.', facts);
    const weak = support('Your opt-in status is permanent. You can reverse it after five years by writing to the Board.', facts);
    expect(strong.pass).toBe(true);
    expect(weak.pass).toBe(false);
    expect(weak.detail).toMatch(/claim 2 of 2 \(not stated: .*"reverse".*"five"/);
    expect(weak.detail).not.toContain('You can reverse it');
    expect(weak.support).toBeLessThan(strong.support);
  });

  it('holds the question: cited facts that never speak of what was asked do not support an answer to it', () => {
    const facts = ['Vehicles should slow down and drive within the speed limit of the road.'];
    const onTopic = support('Drive within the speed limit of the road.', facts, 'What speed limit applies on the road?');
    const offTopic = support('Drive within the speed limit of the road.', facts, 'Do lorries need a permit on expressways?');
    expect(onTopic.pass).toBe(true);
    expect(offTopic.pass).toBe(false);
    expect(offTopic.detail).toContain('"expressways"');
  });

  it('reports support against all evidence beside the cited facts', () => {
    const evidence = [{ text: 'The premium is paid from MediSave.' }, { text: 'Premiums rise with age.' }];
    const answer = { answer: 'Premiums rise with age and with ward class.', citations: [1] };
    const verdict = checkGrounding(answer, evidence, { againstAllEvidence: true });
    expect(verdict.pass).toBe(false);
    expect(verdict.supportAnyEvidence).toBeGreaterThan(verdict.support);
    expect(checkGrounding(answer, evidence).supportAnyEvidence).toBeNull();
  });

  it('splits an answer into claims: sentences, clauses after ";", list lines; markers and source pointers dropped', () => {
    expect(splitClaims('Yes [1]. You pay from MediSave; family may pay too.\n- Online (Fact 2)\n- By post')).toEqual([
      'Yes.',
      'You pay from MediSave',
      'family may pay too.',
      'Online',
      'By post',
    ]);
  });
});
