import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { parseDocument } from '../../../src/kb/parse/index.js';
import { isBand, isLabelLine, isValueLine } from '../../../src/kb/parse/line-shapes.js';

const parse = (text: string) => parseDocument(text, 'text');
const rows = (text: string) =>
  parse(text)
    .facts.filter((fact) => fact.row === true)
    .map((fact) => fact.text);
const texts = (text: string) => parse(text).facts.map((fact) => fact.text);
const example = (path: string) => readFileSync(new URL(`../../../examples/kb/${path}`, import.meta.url), 'utf8');

/** Text as PDF extraction leaves tables: one cell per block. Each fixture is written for this test, shaped like the booklet's. */
describe('tables flattened into text', () => {
  it('bands of numbers are row labels, not values; amounts, percentages and counts with units stay values', () => {
    for (const band of ['1 – 20', '21-30', '>90', '≥ 65', '65+', '80 and below', '81 and above', '30 and Below', 'under 18']) {
      expect(isBand(band), band).toBe(true);
      expect(isLabelLine(band), band).toBe(true);
      expect(isValueLine(band), band).toBe(false);
    }
    for (const value of ['$200', '44% - 54%', '3 - 5 years', '90 km/h', 'N.A.']) {
      expect(isBand(value), value).toBe(false);
      expect(isValueLine(value), value).toBe(true);
    }
  });

  it('two tables side by side under a caption: one fact per row with the title, its row header and its column header', () => {
    const table = [
      'Table 3: Annual fees (before discounts)',
      '(Applicable for renewals on or after 1 July 2026)',
      'Member',
      'Age',
      '',
      'Yearly Fee',
      '(Including 9% GST)',
      '',
      'Member',
      'Age',
      '',
      'Yearly Fee',
      '(Including 9% GST)',
      '',
      '18 – 30',
      '',
      '$120',
      '',
      '61 – 70',
      '',
      '$410',
      '',
      '31 – 45',
      '',
      '$180',
      '',
      '>70',
      '',
      '$520',
      '',
      'Fees are deducted from your account every year.',
    ].join('\n');
    const doc = parse(table);
    expect(doc.facts.filter((fact) => fact.row === true).map((fact) => fact.text)).toEqual([
      'Table 3: Annual fees (before discounts) — Member Age: 18 – 30 — Yearly Fee (Including 9% GST): $120',
      'Table 3: Annual fees (before discounts) — Member Age: 61 – 70 — Yearly Fee (Including 9% GST): $410',
      'Table 3: Annual fees (before discounts) — Member Age: 31 – 45 — Yearly Fee (Including 9% GST): $180',
      'Table 3: Annual fees (before discounts) — Member Age: >70 — Yearly Fee (Including 9% GST): $520',
    ]);
    // the caption's note and the sentence after the table stay facts of their own, under the caption
    expect(doc.facts.filter((fact) => fact.row !== true)).toEqual([
      expect.objectContaining({
        text: '(Applicable for renewals on or after 1 July 2026)',
        heading: 'Table 3: Annual fees (before discounts)',
      }),
      expect.objectContaining({
        text: 'Fees are deducted from your account every year.',
        heading: 'Table 3: Annual fees (before discounts)',
      }),
    ]);
    expect(doc.title).toBe('Table 3: Annual fees (before discounts)');
  });

  it('band column headers, the row-label header at the end of the caption block, and a value spanning the row', () => {
    const table = [
      'The excess depends on your age, as shown in Table 2.',
      'Table 2: Excess',
      '(Based on age at the start of the year)',
      'Room type',
      '',
      '65 and below',
      '',
      '66 and above',
      '',
      'Shared room',
      '',
      '$1,000',
      '',
      '$1,500',
      '',
      'Single room',
      '',
      '$2,000',
      '',
      '$2,800',
      '',
      'Day clinic',
      '',
      'Not Applicable',
    ].join('\n');
    expect(texts(table)).toEqual([
      'The excess depends on your age, as shown in Table 2.',
      '(Based on age at the start of the year)',
      'Table 2: Excess — Room type: Shared room — 65 and below: $1,000; 66 and above: $1,500',
      'Table 2: Excess — Room type: Single room — 65 and below: $2,000; 66 and above: $2,800',
      'Table 2: Excess — Room type: Day clinic — Not Applicable',
    ]);
  });

  it('header cells holding figures: the figures head the columns, the text above them names the group', () => {
    const table = [
      'Table 5: Grants',
      '',
      'Age',
      '',
      'Grant Rates by Monthly Income',
      'Low',
      '$0 - $1,500',
      '',
      'Middle High',
      '$1,501 - $3,000',
      '$3,001 - $4,500',
      '',
      '1 – 40',
      '',
      '25%',
      '',
      '20%',
      '',
      '15%',
      '',
      '41 – 60',
      '',
      '30%',
      '',
      '25%',
      '',
      '20%',
    ].join('\n');
    expect(rows(table)).toEqual([
      'Table 5: Grants — Age: 1 – 40 — Grant Rates by Monthly Income $0 - $1,500: 25%; $1,501 - $3,000: 20%; $3,001 - $4,500: 15%',
      'Table 5: Grants — Age: 41 – 60 — Grant Rates by Monthly Income $0 - $1,500: 30%; $1,501 - $3,000: 25%; $3,001 - $4,500: 20%',
    ]);
  });

  it('a table flattened column by column: serial numbers and values split by the page, notes on the rows above them', () => {
    const table = [
      'S/No.',
      '',
      'Offence',
      '',
      'Points',
      '',
      '1',
      '2',
      '',
      'Parking on a footpath',
      'Stopping in a yellow box junction where the exit is not',
      'clear',
      'Fine : Car: $100 ; Lorry : $150',
      'Speeding in a school zone',
      'Offender will be charged in court',
      'Driving against traffic',
      'Offender will be charged in court',
      '',
      '2',
      '2',
      '',
      '3',
      '4',
      '',
      '6',
      '8',
      '',
      '12',
    ].join('\n'); // "12": the page number, not a cell
    expect(rows(table)).toEqual([
      'Offence: Parking on a footpath — Points: 2 — Fine: Car: $100; Lorry: $150',
      'Offence: Stopping in a yellow box junction where the exit is not clear — Points: 2 — Fine: Car: $100; Lorry: $150',
      'Offence: Speeding in a school zone — Points: 6 — Offender will be charged in court',
      'Offence: Driving against traffic — Points: 8 — Offender will be charged in court',
    ]);
  });

  it('a block of labels and the block of as many values after it, but not titles beside page numbers', () => {
    expect(rows('Table 7: Co-payment\nHospital stay\nAmount claimed in a year\nFirst $5,000\nAbove $5,000\n\n10%\n5%')).toEqual([
      'Table 7: Co-payment — Hospital stay — Amount claimed in a year: First $5,000 — 10%',
      'Table 7: Co-payment — Hospital stay — Amount claimed in a year: Above $5,000 — 5%',
    ]);
    expect(rows('CONTENTS\nMandatory Signs\nWarning Signs\n\n9\n14')).toEqual([]);
  });

  it('leaves alone what is not a table: prose with numbers, and rows that do not line up', () => {
    expect(rows('Table 9: Notes\nPremiums rise with age.\n\nThey are paid from 1 April 2026 each year.')).toEqual([]);
    // widths 1, 2, 3: no number of columns fits
    expect(rows('1 – 20\n\n$200\n\n21 – 30\n\n$300\n\n$310\n\n31 – 40\n\n$400\n\n$410\n\n$420')).toEqual([]);
  });
});

describe('the example KB’s tables', () => {
  it('Table B (premiums by age, two tables side by side): the 31 – 40 row holds $503 with its headers', () => {
    const doc = parse(example('medishield-life/page_8.txt'));
    const premiums = doc.facts.filter((fact) => fact.row === true);
    expect(premiums).toHaveLength(16);
    expect(premiums.map((fact) => fact.text)).toContain(
      'Table B: Premiums (before subsidies) — Age Next Birthday: 31 – 40 — Annual Premiums (Inclusive of 9% GST): $503',
    );
    expect(premiums.map((fact) => fact.text)).toContain(
      'Table B: Premiums (before subsidies) — Age Next Birthday: >90 — Annual Premiums (Inclusive of 9% GST): $2,826',
    );
  });

  it('Table I (deductible by ward class and age band) and the demerit points of the scheduled offences', () => {
    expect(rows(example('medishield-life/page_22.txt'))).toContain(
      'Table I: Deductible — Ward class / treatment: Class C — 80 and below: $2,000; 81 and above: $2,750',
    );
    const offences = rows(example('basic-theory-of-driving/BTT_8.txt'));
    expect(offences).toHaveLength(38);
    expect(offences).toContain('Offences Committed: Careless driving — Demerit Points: 6 — Fine: Light Vehicle: $200; Heavy Vehicle: $250');
    expect(offences).toContain(
      'Offences Committed: Exceeding the speed limit of a vehicle by 41 to 50 kilometres per hour — Demerit Points: 12 — Offender will be prosecuted in court',
    );
  });
});
