import { describe, expect, it } from 'vitest';

import { readFollowUp, refersBack } from '../../../src/core/text/follow-up.js';

const DEDUCTIBLE = 'What is the MediShield Life deductible for adults?';

describe('readFollowUp (rule:follow-up@1)', () => {
  it('an elliptical follow-up borrows the earlier question’s topic words, not its question words', () => {
    const r = readFollowUp(DEDUCTIBLE, 'and for children?');
    expect(r).toMatchObject({ method: 'borrowed', cue: 'elliptical', borrowed: ['MediShield', 'Life', 'deductible', 'adults'] });
    expect(r.question).toBe('and for children (MediShield Life deductible, adults)?');
    for (const followUp of ['what about for foreigners?', 'how about for foreigners?', 'and the co-insurance?', 'Same question for PRs'])
      expect(readFollowUp(DEDUCTIBLE, followUp).method, followUp).toBe('borrowed');
  });

  it('a follow-up that refers back with a pronoun or a demonstrative borrows, whatever its length', () => {
    expect(readFollowUp('Who is eligible for Premium Subsidies?', 'Can I combine this subsidy with my company insurance?')).toMatchObject({
      method: 'borrowed',
      cue: 'refers_back',
      question: 'Can I combine this subsidy with my company insurance (eligible, Premium)?',
    });
    expect(readFollowUp('What is a Provisional Driving Licence?', 'How long is it valid?').question).toBe(
      'How long is it valid (Provisional Driving Licence)?',
    );
    expect(readFollowUp('Is using a phone while driving an offence?', "What's the penalty for that?").cue).toBe('refers_back');
    expect(readFollowUp('What are premium rebates?', 'Who gets them?').cue).toBe('refers_back');
  });

  it('leaves a follow-up that names its own topic as asked: standalone questions and topic shifts', () => {
    const standalone = 'How many demerit points do I get for not wearing a seat belt?';
    expect(readFollowUp('How much is the fine for not wearing a seat belt?', standalone)).toEqual({
      question: standalone,
      method: 'as_asked',
      cue: null,
      borrowed: [],
    });
    for (const shift of [
      "What's the speed limit on a road with no sign?",
      'How deep must tyre treads be?',
      'Thanks. Also, is there a lifetime claim limit for MediShield Life?',
      'What about the speed limit for lorries carrying workers?',
    ])
      expect(readFollowUp(DEDUCTIBLE, shift), shift).toMatchObject({ method: 'as_asked', question: shift });
  });

  it('a fragment borrows; a short question of its own does not', () => {
    expect(readFollowUp(DEDUCTIBLE, 'Class A?')).toMatchObject({ method: 'borrowed', cue: 'fragment' });
    expect(readFollowUp(DEDUCTIBLE, 'Why?')).toMatchObject({ method: 'borrowed', cue: 'fragment' });
    expect(readFollowUp(DEDUCTIBLE, 'What is MediSave?').method).toBe('as_asked');
  });

  it('the follow-up’s number replaces the earlier ones; without one, they are borrowed', () => {
    const previous = 'How much is the MediShield Life premium for someone aged 35?';
    expect(readFollowUp(previous, 'and for a 70 year old?').borrowed).not.toContain('35');
    expect(readFollowUp(previous, 'and for PRs?').borrowed).toContain('35');
  });

  it('with the KB’s vocabulary, borrows only words the KB holds', () => {
    const knows = (term: string) => term !== 'dad';
    const r = readFollowUp('What is the ICU claim limit for my dad?', 'and for a normal ward?', { knows });
    expect(r.borrowed).toEqual(['ICU', 'claim', 'limit']);
    expect(readFollowUp('What is the ICU claim limit for my dad?', 'and for a normal ward?').borrowed).toContain('dad');
  });

  it('does not take a dummy "it" or a conjunction "that" for a reference', () => {
    expect(refersBack('Is it possible to drive with a foreign licence?')).toBe(false);
    expect(refersBack('How long does it take to process a claim?')).toBe(false);
    expect(refersBack('Is it true that MediShield Life covers dental work?')).toBe(false);
    expect(refersBack('Does that include private hospitals?')).toBe(true);
    expect(refersBack('Do these apply to PRs?')).toBe(true);
  });

  it('an empty earlier question or follow-up is taken as asked', () => {
    expect(readFollowUp('', 'and for children?')).toMatchObject({ method: 'as_asked', question: 'and for children?' });
    expect(readFollowUp(DEDUCTIBLE, '  ')).toMatchObject({ method: 'as_asked', question: '' });
  });

  it('a question about something the KB lacks keeps its own words: it never borrows the earlier topic', () => {
    // The KB (MediShield Life) holds none of "annual", "leave", "staff": the question must be refused as asked,
    // not answered about MediShield Life.
    const knows = (term: string) => ['medishield', 'life', 'cover'].includes(term);
    const r = readFollowUp('What does MediShield Life cover?', 'What is the annual leave for staff?', { knows });
    expect(r).toMatchObject({ method: 'as_asked', question: 'What is the annual leave for staff?' });
  });
});
