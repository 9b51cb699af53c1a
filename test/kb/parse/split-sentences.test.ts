import { describe, expect, it } from 'vitest';

import { splitSentences } from '../../../src/kb/parse/index.js';

describe('splitSentences', () => {
  it('splits on . ! ? before a capital, digit, quote or bracket', () => {
    expect(
      splitSentences(
        'The plan covers wards. Is it free? No, it is not! "Quoted" starts here. (Bracketed) starts too. 2025 was the first year.',
      ),
    ).toEqual([
      'The plan covers wards.',
      'Is it free?',
      'No, it is not!',
      '"Quoted" starts here.',
      '(Bracketed) starts too.',
      '2025 was the first year.',
    ]);
  });

  it('does not split before a lower-case word', () => {
    expect(splitSentences('The fee is paid in Jan. and again in June of each year.')).toHaveLength(1);
    expect(splitSentences('It costs 5 dollars. and more besides that.')).toHaveLength(1);
  });

  it('keeps abbreviations inside the sentence', () => {
    const text =
      'Mr. Tan and Mrs. Lim met Dr. Lee at St. Andrew hospital. Bring documents, e.g. Your NRIC and passport, i.e. The originals. ' +
      'Ask for No. 5 vs. No. 6 at the counter. Fruits, vegetables etc. Are sold at the market. It opened on Jan. 5 in the U.S. And it closed at 9 p.m. Sharp every day.';
    expect(splitSentences(text)).toEqual([
      'Mr. Tan and Mrs. Lim met Dr. Lee at St. Andrew hospital.',
      'Bring documents, e.g. Your NRIC and passport, i.e. The originals.',
      'Ask for No. 5 vs. No. 6 at the counter.',
      'Fruits, vegetables etc. Are sold at the market.',
      'It opened on Jan. 5 in the U.S. And it closed at 9 p.m. Sharp every day.',
    ]);
  });

  it('keeps decimals, initials and ellipses inside the sentence', () => {
    expect(
      splitSentences(
        'A coffee costs $1.50 and the rate is 3.5% this year. J. Smith and A. B. Tan wrote the report. He waited... Then he left the room.',
      ),
    ).toEqual([
      'A coffee costs $1.50 and the rate is 3.5% this year.',
      'J. Smith and A. B. Tan wrote the report.',
      'He waited... Then he left the room.',
    ]);
  });

  it('does not split inside parentheses or quotes that close in the same sentence', () => {
    expect(
      splitSentences('Stop (Stop before the white line. Give way to traffic) at the junction. She said "Stop. Now." Then she went home.'),
    ).toEqual(['Stop (Stop before the white line. Give way to traffic) at the junction.', 'She said "Stop. Now."', 'Then she went home.']);
  });

  it('splits "account.If you" where scraped text lost the space', () => {
    expect(splitSentences('Log in to your account.If you forget your password, call the hotline.')).toEqual([
      'Log in to your account.',
      'If you forget your password, call the hotline.',
    ]);
  });

  it('does not split "U.S.A", "e.g.The" or a capitalised word before the period', () => {
    expect(splitSentences('Residents of the U.S.A can apply online without delay.')).toHaveLength(1);
    expect(splitSentences('Bring any document, e.g.The passport issued to you.')).toHaveLength(1);
    expect(splitSentences('Visit One.Motoring for the details of your vehicle.')).toHaveLength(1);
    expect(splitSentences('Write to john.Smith@example.com for the forms you need.')).toHaveLength(1);
  });

  it('merges fragments under three words into the next sentence and drops number-only ones', () => {
    expect(splitSentences('Page 3. Coverage starts on the first day. 7 / 12! The premium is paid yearly.')).toEqual([
      'Page 3. Coverage starts on the first day.',
      'The premium is paid yearly.',
    ]);
    expect(splitSentences('42')).toEqual([]);
    expect(splitSentences('Keep left')).toEqual(['Keep left']);
    expect(splitSentences('The premium is paid yearly. Really.')).toEqual(['The premium is paid yearly. Really.']);
  });

  it('keeps an enumeration marker with its sentence', () => {
    expect(splitSentences('1. Introduction to MediShield Life')).toEqual(['1. Introduction to MediShield Life']);
  });

  it('splits sentences over 80 words at "; "', () => {
    const clause = (n: number): string => `clause ${n} has exactly seven words here`;
    const long = `${Array.from({ length: 14 }, (_, i) => clause(i)).join('; ')}.`;
    const parts = splitSentences(long);
    expect(parts).toHaveLength(14);
    expect(parts[0]).toBe('clause 0 has exactly seven words here');
    expect(parts[13]).toBe('clause 13 has exactly seven words here.');
    expect(splitSentences(Array.from({ length: 90 }, () => 'word').join(' '))).toHaveLength(1);
  });

  it('normalises whitespace and returns nothing for blank input', () => {
    expect(splitSentences('  The   plan\n covers\twards.  ')).toEqual(['The plan covers wards.']);
    expect(splitSentences(' \n ')).toEqual([]);
  });
});
