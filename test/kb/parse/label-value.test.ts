import { describe, expect, it } from 'vitest';

import { parseDocument } from '../../../src/kb/parse/index.js';
import { isLabelLine, isValueLine } from '../../../src/kb/parse/line-shapes.js';

const rows = (text: string) =>
  parseDocument(text, 'text')
    .facts.filter((fact) => fact.row === true)
    .map((fact) => fact.text);
const texts = (text: string) => parseDocument(text, 'text').facts.map((fact) => fact.text);

/** Text as PDF extraction leaves tables: one cell per line, rows apart. Each shape is written for this test, not taken from a document. */
describe('label–value rows in text that came out of a PDF', () => {
  it('value lines: amounts, percentages, dates, counts with units and value words — not sentences that start with a number', () => {
    for (const value of [
      '$200,000',
      'S$1,500.50 per year',
      '€40',
      '-$530.40',
      'up to $300',
      '30%',
      '12.5 %',
      '1 April 2025',
      'March 3, 2026',
      '2026-01-31',
      '31/12/2025',
      '60 days',
      '3 - 5 years',
      '90 km/h',
      'No Limit',
      'Nil',
      'Not covered',
      'N/A',
    ]) {
      expect(isValueLine(value), value).toBe(true);
    }
    for (const other of [
      '102 A composition fine of $120 and 3 demerit points',
      '10 Ubi Avenue 3',
      '1st suspension',
      '3.2 What is a policy year?',
      '4. Government subsidies',
      'Page 6',
      '6',
      'Lifetime',
      'The limit is $830 per day.',
      '',
    ]) {
      expect(isValueLine(other), other).toBe(false);
    }
    expect(isLabelLine('- Annual deductible')).toBe(true);
    expect(isLabelLine('This is a whole sentence.')).toBe(false);
  });

  it('a run of short label lines, then the value on its own line, is one fact holding both', () => {
    expect(texts('Annual deductible\nPer member\n\n$1,800\n\nRoom upgrade\n\n15%')).toEqual([
      'Annual deductible, Per member: $1,800',
      'Room upgrade: 15%',
    ]);
  });

  it('a lone label after a two-line one is its own row (a spanning row label cannot be told from a new row)', () => {
    expect(rows('Dental cover\nPer visit\n\n$90\n\nOptical cover\n\n$200 per year')).toEqual([
      'Dental cover, Per visit: $90',
      'Optical cover: $200 per year',
    ]);
  });

  it('list-marked labels, wrapped labels and wrapped values', () => {
    expect(
      texts('- Home nursing visits\n(after discharge)\n\n$120 per visit, up to\n10 visits a year\n\n- Hearing aids\n\nNot covered'),
    ).toEqual(['Home nursing visits (after discharge): $120 per visit, up to 10 visits a year', 'Hearing aids: Not covered']);
  });

  it('a flattened multi-column table keeps its column headers', () => {
    expect(rows('Vaccination fees\n\nChild\n\nAdult\n\n- Influenza\n\n$15\n\n$30\n\n- Hepatitis B\n\n$20\n\n$45')).toEqual([
      'Influenza — Child: $15; Adult: $30',
      'Hepatitis B — Child: $20; Adult: $45',
    ]);
  });

  it('a two-column table flattened line by line, with and without its header row', () => {
    expect(rows('Service\nProcessing time\nNew passport\n10 working days\nReplacement card\n5 working days')).toEqual([
      'Service: New passport; Processing time: 10 working days',
      'Service: Replacement card; Processing time: 5 working days',
    ]);
    expect(rows('Parking permit\n$45 per month\nLocker rental\n$8 per month')).toEqual([
      'Parking permit: $45 per month',
      'Locker rental: $8 per month',
    ]);
  });

  it('leaves prose, headings with their text, and sentences that wrap onto a number alone', () => {
    expect(
      rows('CLAIMS\nClaims are paid within 30 days.\n\nAn incident occurs between\n2 exits on the expressway\n\nThe fee is\n$20 per year.'),
    ).toEqual([]);
    expect(texts('SIGNS\n\nTurn right only\n\nKeep left')).toEqual(['Turn right only', 'Keep left']);
  });
});
