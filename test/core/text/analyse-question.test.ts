import { describe, expect, it } from 'vitest';

import { analyseQuestion, extractIdentifiers } from '../../../src/core/text/analyse-question.js';
import { MARKUP_PATTERNS, normaliseQuestion } from '../../../src/core/text/normalise-question.js';
import { stem } from '../../../src/core/text/stem.js';
import { contentTerms } from '../../../src/core/text/tokenize.js';

describe('tokenize and stem', () => {
  it('drops stop words and folds inflections', () => {
    expect(contentTerms('How do I renew my passports when renewing?')).toEqual(['renew', 'passport']);
    expect(stem('premiums')).toBe('premium');
    expect(stem('policies')).toBe('policy');
    expect(stem('applied')).toBe('apply');
  });
  it('splits glued scraped sentences and folds plural acronyms', () => {
    expect(contentTerms('your account.If you')).toEqual(['account']);
    expect(contentTerms('PRs and AGMs')).toEqual(['pr', 'agm']);
  });
  it('keeps identifiers whole as well as in parts', () => {
    expect(contentTerms('ADR-0050')).toEqual(['adr0050', 'adr', '0050']);
  });
});

describe('extractIdentifiers', () => {
  it('finds codes, form and section numbers, not ordinals or units', () => {
    expect(extractIdentifiers('See ADR-0050, form IR8A and Form 12 in section 3.2')).toEqual(['adr0050', 'ir8a', 'form12', 'section32']);
    expect(extractIdentifiers('in my 30s, the 2nd time, 5km away')).toEqual([]);
  });
});

describe('analyseQuestion', () => {
  it('recognises what a question expects', () => {
    expect(analyseQuestion('How much is the premium?').expects).toBe('amount');
    expect(analyseQuestion('How many claims can I make?').expects).toBe('number');
    expect(analyseQuestion('When is the deadline?').expects).toBe('date');
    expect(analyseQuestion('Who approves the claim?').expects).toBe('party');
    expect(analyseQuestion('How long does it take?').expects).toBe('duration');
    expect(analyseQuestion('Can I claim twice?').expects).toBeNull();
  });
  it('groups a defined acronym with its long form', () => {
    expect(analyseQuestion('Why is my Central Depository (CDP) statement late?').names).toEqual([['cdp', 'central', 'depository']]);
  });
});

describe('normaliseQuestion', () => {
  it('strips Slack and Teams markup', () => {
    const result = normaliseQuestion('<@U123ABC> what is *MediShield* :smile: <https://x.gov|the site> 🚀 <at>Candor</at>?', 100);
    expect(result).toEqual({ ok: true, text: 'what is MediShield the site ?' });
  });
  it('strips emoji with skin tones, flags and joiners, not just the base pictograph', () => {
    expect(normaliseQuestion('who pays? 👍🏽 👩🏾‍⚕️ 🏴󠁧󠁢󠁳󠁣󠁴󠁿', 100)).toEqual({ ok: true, text: 'who pays?' });
  });
  it('refuses empty, oversized and binary input with a message', () => {
    expect(normaliseQuestion('  \n\t ', 100)).toMatchObject({ ok: false, problem: 'empty' });
    expect(normaliseQuestion('a'.repeat(101), 100)).toMatchObject({ ok: false, problem: 'too_long' });
    expect(normaliseQuestion('abc\u0000def', 100)).toMatchObject({ ok: false, problem: 'not_text' });
  });
  it('refuses a raw message far over the limit before any pattern reads it, and keeps markup-heavy ones within it', () => {
    expect(normaliseQuestion('<#A|'.repeat(200), 100)).toMatchObject({
      ok: false,
      problem: 'too_long',
      message: expect.stringContaining('800'),
    });
    expect(normaliseQuestion(`${'<@U1234567890> '.repeat(20)}who pays?`, 100)).toEqual({ ok: true, text: 'who pays?' });
  });
  // Each pattern meets 1 MB of every unclosed prefix that once made a pattern scan to the end from each position
  // (quadratic: minutes per input). Linear patterns take milliseconds; the budget is generous for a loaded machine.
  it('runs every markup pattern in linear time on adversarial 1 MB inputs', () => {
    const prefixes = [
      '<#A|',
      '<@A|',
      '<!here|',
      '<http:',
      '<mailto:a|',
      '<http:a|',
      '<at>',
      ':a',
      '*',
      '`a',
      '&lt;',
      '\u0001',
      '<',
      '\u00a0',
    ];
    const started = performance.now();
    for (const prefix of prefixes) {
      const input = prefix.repeat(Math.ceil(1_000_000 / prefix.length)).slice(0, 1_000_000);
      for (const [pattern, replacement] of MARKUP_PATTERNS) input.replace(pattern, replacement);
    }
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});

describe('analyseQuestion: names and words as typed', () => {
  it('takes words shaped like names for names, and capitalised common words not', () => {
    expect(analyseQuestion('What is the MediSave Account used for?').names).toEqual([['medisav']]);
    expect(analyseQuestion('Can I use CPF savings in France?').names).toEqual([['cpf']]);
    expect(analyseQuestion('Does the MediShield Platinum Rider cover it?').names).toEqual([['medishield']]);
  });
  it('keeps each term’s word as the user wrote it, so no stem reaches a user', () => {
    const q = analyseQuestion('Who pays the Premiums for treatment in France?');
    expect(q.terms).toEqual(['pay', 'premium', 'treatment', 'franc']);
    expect(q.wordOf).toEqual({ pay: 'pays', premium: 'Premiums', treatment: 'treatment', franc: 'France' });
  });
});
