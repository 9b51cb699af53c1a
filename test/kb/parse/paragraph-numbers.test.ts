import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { parseDocument } from '../../../src/kb/parse/index.js';
import { parsePdf } from '../../../src/kb/parse/parse-pdf.js';
import type { PdfRun } from '../../../src/kb/parse/pdf-lines.js';

const texts = (text: string) => parseDocument(text, 'text').facts.map((fact) => fact.text);
const example = (path: string) => readFileSync(new URL(`../../../examples/kb/${path}`, import.meta.url), 'utf8');

describe('paragraph numbers', () => {
  it('are dropped where they count up through the document, each paragraph then standing alone', () => {
    const handbook = [
      'SEAT BELTS',
      '101 All persons travelling in vehicles should be belted up.',
      '102 A composition fine of $120 and 3 demerit points will be awarded for failing to belt up.',
      'LIGHTS',
      '103 At night you must drive with your headlights on.',
      '(e) Providing access to the internet',
      '105 Any driver caught using a phone while driving will be charged in court.',
    ].join('\n');
    expect(texts(handbook)).toEqual([
      'All persons travelling in vehicles should be belted up.',
      'A composition fine of $120 and 3 demerit points will be awarded for failing to belt up.',
      'At night you must drive with your headlights on.',
      'Providing access to the internet',
      'Any driver caught using a phone while driving will be charged in court.',
    ]);
  });

  it('keep the numbers that are part of what a line says', () => {
    const text = [
      'Suspension periods:',
      '8 weeks (after passing retraining)',
      'Repeat offenders with',
      '2 or more offences lose their licence.',
      'The limit on all roads is',
      '50 km/h unless a sign says otherwise.',
      'Validity',
      '3 Years',
      'Renewal opens on',
      '1 April 2026 for all holders.',
      'Singapore Traffic Police',
      '10 Ubi Avenue 3',
      'The permit costs a total of',
      '12 Singapore dollars a month.',
    ].join('\n');
    const facts = texts(text).join('\n');
    for (const kept of ['8 weeks', '2 or more offences', '50 km/h', '3 Years', '1 April 2026', '10 Ubi Avenue 3', '12 Singapore dollars']) {
      expect(facts).toContain(kept);
    }
  });

  it('are kept when numbered lines do not count up: they are not a counter', () => {
    expect(texts('Room rules\n\n4 Adults and children over twelve may stay.\n\n2 Children under twelve share a bed.')).toEqual([
      '4 Adults and children over twelve may stay.',
      '2 Children under twelve share a bed.',
    ]);
  });

  it('a single one is dropped where it plainly opens a paragraph, after a heading', () => {
    expect(texts('MANDATORY SIGNS\n33 These are compulsory signs. It is an offence to disobey them.')).toEqual([
      'These are compulsory signs.',
      'It is an offence to disobey them.',
    ]);
  });

  it('the driving handbook: paragraph numbers go, its figures stay', () => {
    const page = texts(example('basic-theory-of-driving/BTT_58.txt'));
    expect(page).toContain('A composition fine of $120 and 3 demerit points will be awarded for failing to belt up.');
    expect(page).toContain('At night (between 7.00pm and 7.00am) you must drive with your headlights on.');
    expect(page.filter((fact) => /^\d+ \p{Lu}/u.test(fact))).toEqual([]);
    const expressways = texts(example('basic-theory-of-driving/BTT_55.txt'));
    expect(expressways).toContain(
      'Vehicles which have a speed limit of 60 km/h and below shall be driven along the left hand lane of the expressway.',
    );
  });

  it('in a PDF too: a numbered line starts a new paragraph without its number', () => {
    const run = (y: number, text: string): PdfRun => ({ text, x: 72, y, width: text.length * 5.5, size: 11, bold: false });
    const doc = parsePdf([
      {
        page: 1,
        runs: [
          run(700, '101 All persons travelling in vehicles should be'),
          run(686, 'appropriately belted up.'),
          run(672, '102 A composition fine of $120 and 3 demerit points applies.'),
        ],
      },
    ]);
    expect(doc.facts.map((fact) => fact.text)).toEqual([
      'All persons travelling in vehicles should be appropriately belted up.',
      'A composition fine of $120 and 3 demerit points applies.',
    ]);
  });
});
