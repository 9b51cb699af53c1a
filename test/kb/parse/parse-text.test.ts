import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { parseDocument } from '../../../src/kb/parse/index.js';

const parse = (text: string) => parseDocument(text, 'text');
const texts = (text: string) => parse(text).facts.map((fact) => fact.text);

describe('parseDocument (text)', () => {
  it('joins wrapped lines within a paragraph and splits paragraphs into sentences', () => {
    const doc = parse('Premiums are paid\nfrom MediSave each year. Top up\nif needed.\n\nA second paragraph starts here.');
    expect(doc.facts.map((fact) => fact.text)).toEqual([
      'Premiums are paid from MediSave each year.',
      'Top up if needed.',
      'A second paragraph starts here.',
    ]);
    expect(doc.facts.map((fact) => fact.position)).toEqual([0, 1, 2]);
  });

  it('makes each list line its own fact with the marker removed, and keeps the lead-in line with its items', () => {
    const doc =
      'Traffic signs serve two purposes:\n- To regulate traffic.\n* To warn road users.\n• To inform drivers\nof hazards ahead\na) Letter item one\n(b) Letter item two\n1. Number item one\n2) Number item two\ni. Roman item one';
    expect(texts(doc)).toEqual([
      'Traffic signs serve two purposes: To regulate traffic; To warn road users; To inform drivers of hazards ahead; Letter item one; Letter item two; Number item one; Number item two; Roman item one',
      'To regulate traffic.',
      'To warn road users.',
      'To inform drivers of hazards ahead',
      'Letter item one',
      'Letter item two',
      'Number item one',
      'Number item two',
      'Roman item one',
    ]);
  });

  it('detects ALL CAPS, stand-alone and numbered headings and nests numbered ones', () => {
    const doc = parse(
      [
        'MANDATORY SIGNS',
        'These are compulsory signs.',
        '',
        'Claim limits',
        '',
        'The limit is $830 per day.',
        '',
        '3. Coverage and premium payment',
        'Coverage starts at birth for all citizens.',
        '',
        '3.2 What is a MediShield Life policy year?',
        'A policy year runs for twelve months.',
        '',
        '4. Government subsidies',
        'Subsidies are given automatically.',
      ].join('\n'),
    );
    expect(doc.facts.map((fact) => [fact.heading, fact.text])).toEqual([
      ['MANDATORY SIGNS', 'These are compulsory signs.'],
      ['MANDATORY SIGNS > Claim limits', 'The limit is $830 per day.'],
      ['3. Coverage and premium payment', 'Coverage starts at birth for all citizens.'],
      ['3. Coverage and premium payment > 3.2 What is a MediShield Life policy year?', 'A policy year runs for twelve months.'],
      ['4. Government subsidies', 'Subsidies are given automatically.'],
    ]);
    expect(doc.title).toBe('MANDATORY SIGNS');
  });

  it('does not take sentences, long lines or prices for headings', () => {
    const doc = parse(
      'Intro line that is long enough to not be a title at all here.\n\nThis is a sentence.\n\n$830 per day\n\nThis line has far too many words to ever be a heading line\n\nBody text here.',
    );
    expect(doc.facts.every((fact) => fact.heading === null)).toBe(true);
    expect(doc.title).toBeNull();
  });

  it('keeps a stand-alone short line followed by no text as a fact', () => {
    const doc = parse('SIGNS\n\nTurn right only\n\nKeep left\n\nAhead only');
    expect(doc.facts.map((fact) => [fact.heading, fact.text])).toEqual([
      ['SIGNS', 'Turn right only'],
      ['SIGNS', 'Keep left'],
      ['SIGNS', 'Ahead only'],
    ]);
  });

  it('drops page numbers and running headers repeated three or more times', () => {
    const page = (n: number, body: string) => `BASIC THEORY OF DRIVING\n\n${body}\n\n${n}\n`;
    const doc = parse(
      [
        page(1, 'Drivers must keep left.'),
        page(2, 'Drivers must signal early.'),
        page(3, 'Page 3 of 9\nDrivers must stop at red lights.'),
      ].join('\n'),
    );
    expect(doc.facts.map((fact) => fact.text)).toEqual([
      'Drivers must keep left.',
      'Drivers must signal early.',
      'Drivers must stop at red lights.',
    ]);
  });

  it('keeps a fact only once per heading', () => {
    const doc = parse('FIRST\nThe fee is $20 per year. The fee is $20 per year.\n\nSECOND\nThe fee is $20 per year.');
    expect(doc.facts.map((fact) => [fact.heading, fact.text, fact.position])).toEqual([
      ['FIRST', 'The fee is $20 per year.', 0],
      ['SECOND', 'The fee is $20 per year.', 1],
    ]);
  });

  it('joins a numbered heading that wraps onto a second line', () => {
    const doc = parse(
      '4.4 What does Premium Cap mean? What is the Phased Support and\nwho is eligible for it?\nThe increase is capped at 35% over three years.',
    );
    expect(doc.facts).toEqual([
      {
        text: 'The increase is capped at 35% over three years.',
        heading: '4.4 What does Premium Cap mean? What is the Phased Support and who is eligible for it?',
        position: 0,
      },
    ]);
  });

  it('parses the real MediShield Life booklet page 5 sensibly', () => {
    const content = readFileSync('/work/shared/data/policybench/documents/medishield_life_booklet/page_5.txt', 'utf8');
    const doc = parse(content);
    expect(doc.facts.length).toBeGreaterThan(10);
    expect(doc.title).toBe('Table A: MediShield Life benefits');
    for (const fact of doc.facts) {
      expect(fact.text).toMatch(/\p{L}{2}/u); // never only a number, price or letter
      expect(fact.text).toBe(fact.text.replace(/\s+/g, ' ').trim());
    }
    expect(doc.facts.map((fact) => fact.position)).toEqual(doc.facts.map((_, index) => index));
    const headings = new Set(doc.facts.map((fact) => fact.heading));
    expect(headings).toContain('Table A: MediShield Life benefits > Claim limits');
    expect(headings).toContain('Table A: MediShield Life benefits > Surgical procedures');
    expect(doc.facts).toContainEqual({
      text: 'An additional claim limit of $800 per day applies for the first two days of the inpatient stay',
      heading: 'Table A: MediShield Life benefits > Claim limits',
      position: expect.any(Number) as number,
    });
    // the row label and its value (on a line of its own in the flattened table) are one fact since issue 12
    expect(doc.facts.map((fact) => fact.text)).toContain('Psychiatric (up to 60 days per policy year): $230 per day');
    expect(doc.facts.some((fact) => fact.text.startsWith('- ') || fact.text === '5')).toBe(false);
  });
});
