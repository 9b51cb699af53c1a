import { describe, expect, it } from 'vitest';

import { parsePdf } from '../../../src/kb/parse/parse-pdf.js';
import { groupLines, type PdfPageText, type PdfRun } from '../../../src/kb/parse/pdf-lines.js';

/** A run as pdf.js reports one: width from an average Helvetica advance of half the font size per character. */
const run = (x: number, y: number, text: string, size = 11, bold = false): PdfRun => ({
  text,
  x,
  y,
  width: text.length * size * 0.5,
  size,
  bold,
});
const page = (number: number, runs: PdfRun[]): PdfPageText => ({ page: number, runs });
const rows = (pages: PdfPageText[]) => parsePdf(pages).facts.map((fact) => [fact.page, fact.heading, fact.text]);

describe('PDF text positions → lines and cells', () => {
  it('joins runs on one baseline (superscripts too), splits at column gaps, orders top to bottom', () => {
    const lines = groupLines(
      page(1, [run(72, 700, 'Second line'), run(72, 720, 'First'), run(103, 720, 'line'), run(125, 723, '1', 7), run(300, 720, '$45')]),
    );
    expect(lines.map((line) => line.cells.map((cell) => cell.text))).toEqual([['First line1', '$45'], ['Second line']]);
    expect(lines[0]?.size).toBe(11);
  });
});

describe('parsePdf', () => {
  it('ranks headings by size, then weight, then numbering depth', () => {
    const doc = parsePdf([
      page(1, [
        run(72, 800, 'Annual Report', 22, true),
        run(72, 770, 'Overview of the year', 11, true),
        run(72, 750, 'Revenue grew in every region.'),
        run(72, 720, '2. Operations', 11),
        run(72, 700, 'Two new offices opened.'),
        run(72, 680, '2.1 Staffing', 11),
        run(72, 660, 'Headcount rose by 40 people.'),
      ]),
    ]);
    expect(doc.title).toBe('Annual Report');
    expect(doc.facts.map((fact) => [fact.heading, fact.text])).toEqual([
      ['Annual Report > Overview of the year', 'Revenue grew in every region.'],
      ['Annual Report > 2. Operations', 'Two new offices opened.'],
      ['Annual Report > 2. Operations > 2.1 Staffing', 'Headcount rose by 40 people.'],
    ]);
  });

  it('a numbered list is not taken for headings; bullets are list items', () => {
    expect(
      rows([
        page(1, [
          run(72, 700, '1. Fill in the form'),
          run(72, 686, '2. Attach your receipts'),
          run(72, 660, '• Keep a copy for'),
          run(84, 646, 'your records'),
          run(72, 632, '• Submit online'),
        ]),
      ]),
    ).toEqual([
      [1, null, 'Fill in the form'],
      [1, null, 'Attach your receipts'],
      [1, null, 'Keep a copy for your records'],
      [1, null, 'Submit online'],
    ]);
  });

  it('a table without a header row gives "label: value"; wrapped cells join their row; a full-width label names the rows below it', () => {
    const doc = parsePdf([
      page(1, [
        run(72, 700, 'Kidney dialysis'),
        run(300, 700, '$1,750 per month'),
        run(72, 684, 'Inpatient palliative care'),
        run(300, 684, '$500 per day'),
        run(72, 670, '(Specialised)'),
        run(72, 654, 'Maximum claim limit'),
        run(72, 640, 'Per policy year'),
        run(300, 640, '$200,000'),
        run(72, 626, 'Lifetime'),
        run(300, 626, 'No Limit'),
        run(72, 590, 'Claims are paid to the hospital.'),
      ]),
    ]);
    expect(doc.facts.map((fact) => [fact.text, fact.row === true])).toEqual([
      ['Kidney dialysis: $1,750 per month', true],
      ['Inpatient palliative care (Specialised): $500 per day', true],
      ['Maximum claim limit, Per policy year: $200,000', true],
      ['Maximum claim limit, Lifetime: No Limit', true],
      ['Claims are paid to the hospital.', false],
    ]);
  });

  it('a table whose header holds no figures labels its rows; a wrapped value joins its cell; a table may run onto the next page', () => {
    expect(
      rows([
        page(1, [
          run(72, 700, 'Ward'),
          run(300, 700, 'Daily limit'),
          run(72, 684, 'Normal ward'),
          run(300, 684, '$830 per day, plus'),
          run(300, 670, '$800 on day one'),
        ]),
        page(2, [run(72, 800, 'Intensive care'), run(300, 800, '$5,140 per day')]),
      ]),
    ).toEqual([
      [1, null, 'Ward: Normal ward; Daily limit: $830 per day, plus $800 on day one'],
      [2, null, 'Intensive care: $5,140 per day'],
    ]);
  });

  it('cells a word space or two apart are cells where rows line up; styled words and list markers printed apart stay text', () => {
    expect(
      rows([
        page(1, [
          run(72, 700, 'Plan', 11, true),
          run(135, 700, 'Price', 11, true),
          run(72, 686, 'Basic plan'),
          run(135, 686, '$10'),
          run(72, 672, 'Team plan'),
          run(135, 672, '$25'),
          run(72, 640, 'Prices are'),
          run(130.5, 640, 'before'),
          run(166.5, 640, 'tax.'),
          run(56, 626, '1.'),
          run(72, 626, 'Pay online'),
          run(56, 612, '2.'),
          run(72, 612, 'Keep the receipt'),
        ]),
      ]),
    ).toEqual([
      [1, null, 'Plan: Basic plan; Price: $10'],
      [1, null, 'Plan: Team plan; Price: $25'],
      [1, null, 'Prices are before tax.'],
      [1, null, 'Pay online'],
      [1, null, 'Keep the receipt'],
    ]);
  });

  it('drops page numbers and lines repeated on most pages; reports pages with no text', () => {
    const topics = ['Leave', 'Travel', 'Security'];
    const pages = [1, 2, 3].map((n) =>
      page(n, [
        run(72, 810, 'Staff Handbook 2026', 9),
        run(72, 760, `${topics[n - 1]} rules are set by the board.`),
        run(72, 700, `Rule number ${n} applies to everyone.`),
        run(72, 640, `Ask the ${topics[n - 1]?.toLowerCase()} desk when in doubt.`),
        run(400, 40, `Page ${n} of 4`, 9),
      ]),
    );
    const doc = parsePdf([...pages, page(4, [])]);
    expect(doc.facts.map((fact) => fact.text)).not.toContain('Staff Handbook 2026');
    expect(doc.facts.filter((fact) => fact.text.startsWith('Rule')).map((fact) => [fact.page, fact.text])).toEqual([
      [1, 'Rule number 1 applies to everyone.'],
      [2, 'Rule number 2 applies to everyone.'],
      [3, 'Rule number 3 applies to everyone.'],
    ]);
    expect(doc.facts.some((fact) => /Page \d/.test(fact.text))).toBe(false);
    expect(doc.emptyPages).toEqual([4]);
  });
});
