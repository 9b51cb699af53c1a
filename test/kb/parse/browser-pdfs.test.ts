import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { DEFAULT_INGEST_LIMITS } from '../../../src/config/ingest-limits.js';
import { parseDocument } from '../../../src/kb/parse/index.js';
import { parseBinaryDocument } from '../../../src/kb/parse/parse-binary.js';

const fixture = (name: string) => new URL(`./browser-pdfs/${name}`, import.meta.url);
const facts = (doc: { facts: readonly { heading: string | null; text: string; row?: boolean }[] }) =>
  doc.facts.map((fact) => ({ heading: fact.heading, text: fact.text, row: fact.row === true }));

async function pdfFacts(name: string) {
  const parsed = await parseBinaryDocument(readFileSync(fixture(name)), 'pdf', DEFAULT_INGEST_LIMITS);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.doc;
}

/**
 * Pages printed to PDF by headless Chromium (scripts/make-browser-pdfs.ts, from the .html beside them): a
 * browser prints every table cell as a text run of its own, a few points from the next, and without tags
 * pdf.js runs the closest ones together. The PDF keeps every row, with its headers, as the page does as HTML.
 */
describe.each([
  ['untagged', ''],
  ['tagged, as "Save as PDF" writes it', '.tagged'],
])('tables printed from a browser (%s)', (_, variant) => {
  it.each(['two-columns', 'three-columns'])('%s: every row of the table, as the HTML page gives it', async (page) => {
    const pdf = await pdfFacts(`${page}${variant}.pdf`);
    const html = parseDocument(readFileSync(fixture(`${page}.html`), 'utf8'), 'html');
    expect(facts(pdf)).toEqual(facts(html));
    expect(pdf.facts.filter((fact) => fact.row).length).toBe(3);
  });

  it('three columns: the header cells, centred over the columns, name each cell', async () => {
    const rows = (await pdfFacts(`three-columns${variant}.pdf`)).facts.filter((fact) => fact.row).map((fact) => fact.text);
    expect(rows).toEqual([
      'Ward: Normal ward; Daily limit: $830 per day; Co-payment: 10%',
      'Ward: High dependency; Daily limit: $2,600 per day; Co-payment: 5%',
      'Ward: Intensive care; Daily limit: $5,140 per day; Co-payment: none',
    ]);
  });

  it('a table across a page break: all 60 rows, each on its page, the header repeated on the next page read as the header', async () => {
    const pdf = await pdfFacts(`page-break${variant}.pdf`);
    const html = parseDocument(readFileSync(fixture('page-break.html'), 'utf8'), 'html');
    expect(facts(pdf)).toEqual(facts(html));
    const rows = pdf.facts.filter((fact) => fact.row);
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((fact) => fact.page))).toEqual(new Set([1, 2]));
    expect(rows.at(-1)).toMatchObject({ page: 2, text: 'Room: Room 560; Floor: Floor 5; Capacity: 16 seats' });
  });
});
