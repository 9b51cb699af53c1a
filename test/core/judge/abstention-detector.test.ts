import { describe, expect, it } from 'vitest';

import { detectAbstention, splitSentences } from '../../../src/core/judge/abstention-detector.js';

// Phrasings written for these tests (not taken from the PolicyBench responses the detector is measured on).
const abstains = (reply: string, question?: string) => detectAbstention(reply, question).abstains;

describe('detectAbstention: the declining shapes', () => {
  it.each([
    ["I don't know.", 'speaker_does_not_know'],
    ['I do not have enough information to answer that.', 'speaker_does_not_know'],
    ["I'm not sure about the renewal fee.", 'speaker_not_sure'],
    ["I'm afraid I can't answer that from what I have.", 'speaker_cannot'],
    ['Unfortunately this is not something I can help with.', 'not_something_i_can'],
    ['The renewal fee cannot be determined from these documents.', 'cannot_be_determined'],
    ['No citation.', 'no_citation'],
    ["The knowledge base doesn't explicitly say how long the licence lasts.", 'source_does_not_state'],
    ['The provided documents make no mention of a late fee.', 'source_is_silent'],
    ['The context is silent on late fees.', 'source_is_silent'],
    ['How long the licence lasts is not specifically stated.', 'not_stated'],
    ['There is no specific guidance on late renewals.', 'no_information'],
    ['No specific deadline is given for the appeal.', 'nothing_is_stated'],
    ['No relevant source covers the appeal process.', 'no_source_states'],
    ['That information isn’t available to me.', 'information_unavailable'],
    ['The fee for a replacement card does not appear anywhere in the provided text.', 'not_in_the_sources'],
    ['Questions about tax rates fall outside the scope of this assistant.', 'out_of_scope'],
  ])('%s → abstains (%s)', (reply, shape) => {
    const verdict = detectAbstention(reply);
    expect(verdict.abstains).toBe(true);
    expect(verdict.shape).toBe(shape);
  });

  it.each([
    'The licence lasts five years and costs $60 to renew.',
    'Yes, you can appeal within 30 days of the decision.',
    'No, applicants under 18 are not eligible for the scheme.',
    'Passport photos must not be older than three months.',
    'You should contact the Board if your card is lost.',
    'Tax relief is not available for top-ups made to siblings.',
  ])('%s → answers', (reply) => {
    expect(abstains(reply)).toBe(false);
  });

  it('an empty reply abstains (nothing was said)', () => {
    expect(detectAbstention('   ').abstains).toBe(true);
  });
});

describe('detectAbstention: the shape of the whole reply', () => {
  it('declining first, then background, a referral or talk about the sources, is an abstention', () => {
    expect(
      abstains('The documents do not say how to renew abroad. Renewals in person take two weeks. Please contact the embassy for guidance.'),
    ).toBe(true);
    expect(abstains('There is no information about refunds. The context mainly covers how to apply.')).toBe(true);
  });

  it('declining first, then offering what is typically true, is an attempt to answer', () => {
    const verdict = detectAbstention('The documents do not say how long it takes. However, applications typically take two weeks.');
    expect(verdict.abstains).toBe(false);
    expect(verdict.roles).toEqual(['decline', 'substitute']);
  });

  it('answering first and adding a caveat about a detail is an answer', () => {
    const q = 'How do I renew my licence and what does it cost?';
    expect(abstains('You renew your licence online with your ID. The exact processing time is not specified.', q)).toBe(false);
  });

  it('background first, then saying the very thing asked is not stated, is an abstention', () => {
    const q = 'Can I renew my fishing licence while abroad?';
    const verdict = detectAbstention(
      'Fishing licences are issued by the marine department. There is no mention of renewing a fishing licence while abroad.',
      q,
    );
    expect(verdict.abstains).toBe(true);
    expect(verdict.why).toMatch(/core/);
  });

  it('without the question, a late decline is read as a caveat', () => {
    expect(
      abstains('Fishing licences are issued by the marine department. There is no mention of renewing a fishing licence while abroad.'),
    ).toBe(false);
  });

  it('a decline given only as the reason for an answer is part of the answer', () => {
    expect(abstains('No, you must submit the form in person, as the context does not mention any online option.')).toBe(false);
    expect(abstains('No, the context does not mention an online option.')).toBe(true);
  });

  it('reads "Yes," and "No," by what follows', () => {
    expect(abstains("Yes, I'm afraid the documents don't cover that.")).toBe(true);
    expect(abstains('Yes, you may apply for both at once.')).toBe(false);
  });

  it('the share of question terms a late decline must name is a setting', () => {
    const q = 'Can I renew my fishing licence while abroad?';
    const reply = 'Fishing licences are issued by the marine department. Renewing abroad is not mentioned.';
    expect(detectAbstention(reply, q, { coreCoverage: 0.9 }).abstains).toBe(false);
    expect(detectAbstention(reply, q, { coreCoverage: 0.2 }).abstains).toBe(true);
  });

  it('is deterministic and treats curly apostrophes like straight ones', () => {
    expect(detectAbstention('I don’t know.')).toEqual(detectAbstention("I don't know."));
  });
});

describe('splitSentences', () => {
  it('splits at sentence ends but keeps abbreviations whole', () => {
    expect(splitSentences('bring id, e.g. a passport. then wait! done?')).toEqual(['bring id, e.g. a passport.', 'then wait!', 'done?']);
  });
});
