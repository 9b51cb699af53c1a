import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Ask } from '../../../src/ask/ask-service.js';
import { ingestPaths, type IngestSummary } from '../../../src/kb/ingest/ingest.js';
import { facts, knowledgeBases } from '../../../src/store/schema.js';
import { composeAsk, tempFiles } from '../../support/compose.js';
import { writePdf } from '../../support/pdf-writer.js';
import { useTestStore } from '../../support/stores.js';
import { guidePdf, visitorPolicyDocx } from './document-fixtures.js';

/** PDF and Word documents built in the test, ingested through the real pipeline and asked through the real ask path. */
describe('ingesting PDF and Word documents', () => {
  const handle = useTestStore('pglite');
  const files = tempFiles({}, 'candor-documents-');
  let summary: IngestSummary;
  let ask: Ask;

  beforeAll(async () => {
    files.write('benefits-guide.pdf', guidePdf());
    files.write('visitor-policy.docx', await visitorPolicyDocx());
    files.write('notes.md', '# Notes\n\nThe lobby opens at 8 am on weekdays.\n');
    summary = await ingestPaths(handle.store.db, [files.dir], { kb: 'docs' });
    ask = composeAsk(handle.store).ask;
  });
  afterAll(() => files.cleanup());

  const stored = async () => {
    const [kb] = await handle.store.db.select().from(knowledgeBases).where(eq(knowledgeBases.name, 'docs'));
    return handle.store.db
      .select({ text: facts.text, heading: facts.heading, source: facts.source })
      .from(facts)
      .where(and(eq(facts.kbId, kb!.id), isNull(facts.retiredInVersion)))
      .orderBy(asc(facts.documentId), asc(facts.position));
  };

  it('reports files, facts and table rows per type', () => {
    expect(summary).toMatchObject({ documents: 3, added: 3, skipped: [], errors: [] });
    expect(summary.byType).toEqual({
      pdf: { files: 1, facts: 9, tableRows: 4, skipped: 0, errors: 0 },
      docx: { files: 1, facts: 5, tableRows: 3, skipped: 0, errors: 0 },
      markdown: { files: 1, facts: 1, tableRows: 0, skipped: 0, errors: 0 },
    });
  });

  it('PDF: paragraphs as sentences, heading paths from size, weight and numbering, page numbers in the locator', async () => {
    const pdf = (await stored()).filter((fact) => fact.source.startsWith('benefits-guide.pdf'));
    expect(pdf).toEqual([
      {
        text: 'Full-time staff receive 18 days of annual leave each year.',
        heading: 'Staff Benefits Guide > 1. Leave',
        source: 'benefits-guide.pdf › p. 1 › Staff Benefits Guide > 1. Leave',
      },
      {
        text: 'Up to 5 unused days may be carried forward into the next year.',
        heading: 'Staff Benefits Guide > 1. Leave',
        source: 'benefits-guide.pdf › p. 1 › Staff Benefits Guide > 1. Leave',
      },
      {
        text: 'Outpatient treatment is reimbursed up to the limits in the table below.',
        heading: 'Staff Benefits Guide > 2. Medical benefits',
        source: 'benefits-guide.pdf › p. 1 › Staff Benefits Guide > 2. Medical benefits',
      },
      {
        text: 'Table 1: Outpatient claim limits',
        heading: 'Staff Benefits Guide > 2. Medical benefits',
        source: 'benefits-guide.pdf › p. 1 › Staff Benefits Guide > 2. Medical benefits',
      },
      ...[
        'Treatment: General practitioner visit; Claim limit: $45 per visit',
        'Treatment: Dental scaling and polishing; Claim limit: $120 per year',
        'Treatment: Physiotherapy session; Claim limit: $80 per session',
        'Treatment: Spectacle lenses; Claim limit: $150 every two years',
      ].map((text) => ({
        text,
        heading: 'Staff Benefits Guide > 2. Medical benefits > Table 1: Outpatient claim limits',
        source: 'benefits-guide.pdf › p. 1 › Staff Benefits Guide > 2. Medical benefits > Table 1: Outpatient claim limits',
      })),
      {
        text: 'Claims are submitted through the finance portal within 60 days of the visit.',
        heading: 'Staff Benefits Guide > 3. Claims > 3.1 Submitting a claim',
        source: 'benefits-guide.pdf › p. 2 › Staff Benefits Guide > 3. Claims > 3.1 Submitting a claim',
      },
    ]);
  });

  it('Word: headings, paragraphs and the table through the HTML reader', async () => {
    const docx = (await stored()).filter((fact) => fact.source.startsWith('visitor-policy.docx'));
    expect(docx.map((fact) => [fact.heading, fact.text])).toEqual([
      ['Visitor Policy', 'Visitors sign in at the lobby reception and wear a badge at all times.'],
      ['Visitor Policy > Visitor fees', 'The fees below are charged to the host department.'],
      ['Visitor Policy > Visitor fees', 'Item: Replacement visitor badge; Fee: $20'],
      ['Visitor Policy > Visitor fees', 'Item: Overnight visitor parking; Fee: $15 per night'],
      ['Visitor Policy > Visitor fees', 'Item: Meeting room booking; Fee: $35 per hour'],
    ]);
    expect(docx[2]?.source).toBe('visitor-policy.docx › Visitor Policy > Visitor fees');
  });

  it('a question about a table row is answered with that row and its value', async () => {
    const pdf = await ask({ question: 'What is the claim limit for a physiotherapy session?', kb: 'docs', channel: 'test' });
    expect(pdf.decision).toBe('answer');
    expect(pdf.evidence[0]).toMatchObject({
      text: 'Treatment: Physiotherapy session; Claim limit: $80 per session',
      source: expect.stringContaining('p. 1'),
    });
    expect(pdf.answer).toContain('$80 per session');

    const docx = await ask({ question: 'What is the fee for a replacement visitor badge?', kb: 'docs', channel: 'test' });
    expect(docx.decision).toBe('answer');
    expect(docx.evidence[0]?.text).toBe('Item: Replacement visitor badge; Fee: $20');
    expect(docx.answer).toContain('$20');
  });

  it('a question about a row that is not in the table is refused', async () => {
    for (const question of ['What is the claim limit for acupuncture?', 'What is the fee for renting a visitor locker?']) {
      const d = await ask({ question, kb: 'docs', channel: 'test' });
      expect(d.decision, question).toBe('abstain');
      expect(d.evidence).toEqual([]);
    }
  });

  it('re-ingesting the same PDF and Word files changes nothing', async () => {
    const before = await stored();
    const again = await ingestPaths(handle.store.db, [files.dir], { kb: 'docs' });
    expect(again).toMatchObject({ kb: { version: summary.kb.version }, added: 0, changed: 0, unchanged: 3, facts: 0, errors: [] });
    expect(await stored()).toEqual(before);
  });
});

describe('PDFs that cannot be read', () => {
  const handle = useTestStore('pglite');
  const files = tempFiles({}, 'candor-bad-pdfs-');
  afterAll(() => files.cleanup());

  it('an encrypted, a corrupt and a truncated PDF each fail alone; a scan is skipped; the rest of the batch is stored', async () => {
    const good = guidePdf();
    files.write('a-good.pdf', good);
    files.write('b-encrypted.pdf', guidePdf({ userPassword: 'open sesame' }));
    files.write('c-corrupt.pdf', `%PDF-1.7\n${'not a pdf object '.repeat(64)}\n%%EOF\n`);
    files.write('d-truncated.pdf', good.subarray(0, Math.floor(good.length / 2)));
    files.write('e-scanned.pdf', writePdf([[], []]));
    files.write('f-notes.txt', 'The lobby opens at 8 am on weekdays.');

    const summary = await ingestPaths(handle.store.db, [files.dir], { kb: 'bad' });
    expect(summary.errors).toEqual([
      { path: files.path('b-encrypted.pdf'), reason: expect.stringMatching(/^password-protected PDF: .*password/) },
      { path: files.path('c-corrupt.pdf'), reason: expect.stringMatching(/^corrupt PDF: /) },
      { path: files.path('d-truncated.pdf'), reason: expect.stringMatching(/^truncated PDF: .*%%EOF/) },
    ]);
    expect(summary.skipped).toEqual([
      { path: files.path('e-scanned.pdf'), reason: expect.stringMatching(/^no text layer on any page: a scanned PDF\?/) },
    ]);
    expect(summary).toMatchObject({ documents: 2, added: 2, facts: 10 });
    expect(summary.byType).toEqual({
      pdf: { files: 1, facts: 9, tableRows: 4, skipped: 1, errors: 3 },
      text: { files: 1, facts: 1, tableRows: 0, skipped: 0, errors: 0 },
    });
  });
});
