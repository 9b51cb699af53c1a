import { mkdirSync } from 'node:fs';
import { asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ingestPaths } from '../../../src/kb/ingest/ingest.js';
import { readFactLines } from '../../../src/kb/ingest/read-sources.js';
import { KnowledgeIndexCache } from '../../../src/kb/knowledge-index-cache.js';
import { parseBinaryDocument } from '../../../src/kb/parse/parse-binary.js';
import { documents, facts } from '../../../src/store/schema.js';
import { tempFiles } from '../../support/compose.js';
import { useTestStore } from '../../support/stores.js';
import { guidePdf } from './document-fixtures.js';

const BOOKLET = 'https://example.gov.sg/booklet.pdf';

/**
 * The PDF with a document information dictionary added by an incremental update (as a PDF tool saving
 * document properties does): a new object, and a cross-reference section and trailer that name it.
 */
function withInfo(pdf: Buffer, entries: Record<string, string>): Buffer {
  const text = pdf.toString('latin1');
  const size = Number(/\/Size (\d+)/.exec(text)![1]);
  const root = /\/Root (\d+) 0 R/.exec(text)![1];
  const previous = /startxref\n(\d+)/.exec(text)![1];
  const info = Object.entries(entries)
    .map(([key, value]) => `/${key} (${value.replace(/[()\\]/g, '\\$&')})`)
    .join(' ');
  const object = `${size} 0 obj\n<< ${info} >>\nendobj\n`;
  const xref = pdf.length + Buffer.byteLength(object, 'latin1');
  const update =
    `${object}xref\n0 1\n0000000000 65535 f \n${size} 1\n${String(pdf.length).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size + 1} /Root ${root} 0 R /Info ${size} 0 R /Prev ${previous} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(update, 'latin1')]);
}

const LIMITS = { maxDocxBytes: 64 * 1024 * 1024, maxPdfPages: 10 };

describe('links of documents and facts', () => {
  it('a PDF’s link comes from its metadata when it has one (http(s) only)', async () => {
    const linked = await parseBinaryDocument(
      withInfo(guidePdf(), { Title: 'Staff Benefits Guide', URL: 'https://intranet.example.com/guide.pdf' }),
      'pdf',
      LIMITS,
    );
    expect(linked).toMatchObject({ ok: true, doc: { url: 'https://intranet.example.com/guide.pdf' } });
    const scripted = await parseBinaryDocument(withInfo(guidePdf(), { URL: 'javascript:alert(1)' }), 'pdf', LIMITS);
    expect(scripted).toMatchObject({ ok: true, doc: { url: null } });
    expect(await parseBinaryDocument(guidePdf(), 'pdf', LIMITS)).toMatchObject({ ok: true, doc: { url: null } });
  });

  it('a .jsonl fact may carry its own http(s) url; a line with any other is skipped with the reason', () => {
    const read = readFactLines(
      [
        JSON.stringify({ id: 'F-1', text: 'Claims are paid within 30 days.', url: 'https://faq.example.org/claims' }),
        JSON.stringify({ id: 'F-2', text: 'Premiums are paid yearly.' }),
        JSON.stringify({ id: 'F-3', text: 'Refunds take a week.', url: 'javascript:alert(1)' }),
      ].join('\n'),
      'faq.jsonl',
    );
    expect(read.facts.map((fact) => [fact.externalId, fact.url])).toEqual([
      ['F-1', 'https://faq.example.org/claims'],
      ['F-2', null],
    ]);
    expect(read.skipped).toEqual(['line 3: url expected an http(s) URL']);
  });
});

/** A small KB in folders: pages of one booklet, a web page with its canonical link, FAQ facts (one with its own link). */
describe('ingested links reach the evidence', () => {
  const handle = useTestStore('pglite');
  const files = tempFiles({}, 'candor-links-');
  afterAll(() => files.cleanup());
  const sourceUrls = { booklet: BOOKLET, 'site/': 'https://mirror.example.com/site/', faq: 'https://faq.example.org/all' };

  beforeAll(async () => {
    for (const folder of ['booklet', 'site', 'faq', 'guide']) mkdirSync(files.path(folder));
    files.write('booklet/page_1.txt', 'NEWBORN COVER\n\nNewborns who are citizens are covered from birth under the booklet scheme.\n');
    files.write('booklet/page_2.txt', 'WARD CHARGES\n\nThe daily ward charge limit under the booklet scheme is $830 per day.\n');
    files.write(
      'site/leave.html',
      '<html><head><title>Leave policy</title><link rel="canonical" href="https://intranet.example.com/hr/leave"></head>' +
        '<body><p>Staff may work from home on two days of each week.</p></body></html>',
    );
    files.write('guide/guide.pdf', withInfo(guidePdf(), { URL: 'https://intranet.example.com/guide.pdf' }));
    files.write(
      'faq/answers.jsonl',
      [
        JSON.stringify({ id: 'FAQ-1', text: 'Parking permits for staff cost $45 per month.', url: 'https://faq.example.org/parking' }),
        JSON.stringify({ id: 'FAQ-2', text: 'The staff canteen serves breakfast from 7.30 am.' }),
      ].join('\n'),
    );
    const summary = await ingestPaths(handle.store.db, [files.dir], { kb: 'links', sourceUrls });
    expect(summary).toMatchObject({ documents: 5, added: 5, relinked: 0, errors: [], skipped: [] });
  });

  const evidenceFor = async (question: string) => {
    const index = await new KnowledgeIndexCache(handle.store.db).get('links');
    return index.retrieve(question, 3)[0]!;
  };

  it('retrieve() gives each fact its link and its document’s title', async () => {
    expect(await evidenceFor('Are newborns covered from birth?')).toMatchObject({
      text: 'Newborns who are citizens are covered from birth under the booklet scheme.',
      url: BOOKLET,
      title: 'NEWBORN COVER',
    });
    // the page's own canonical link wins over its folder's base URL
    expect(await evidenceFor('How many days a week may staff work from home?')).toMatchObject({
      url: 'https://intranet.example.com/hr/leave',
      title: 'Leave policy',
    });
    // a PDF's link from its metadata, read in the parsing worker
    expect(await evidenceFor('How many days of annual leave do full-time staff receive?')).toMatchObject({
      url: 'https://intranet.example.com/guide.pdf',
      title: 'Staff Benefits Guide',
    });
    // a fact's own link wins over its file's; ready-made facts have no document title
    expect(await evidenceFor('How much is a parking permit?')).toMatchObject({ url: 'https://faq.example.org/parking', title: null });
    expect(await evidenceFor('When does the canteen serve breakfast?')).toMatchObject({ url: 'https://faq.example.org/all', title: null });
    const [row] = await handle.store.db.select({ url: documents.url }).from(documents).where(eq(documents.path, 'booklet/page_2.txt'));
    expect(row?.url).toBe(BOOKLET);
  });

  it('re-ingesting unchanged files with new links updates the links in place: same facts, a new version, the facts relinked counted', async () => {
    const active = () =>
      handle.store.db.select({ id: facts.id, url: facts.url }).from(facts).where(isNull(facts.retiredInVersion)).orderBy(asc(facts.id));
    const before = await active();
    const moved = { ...sourceUrls, booklet: 'https://example.gov.sg/booklet-2026.pdf', faq: 'https://help.example.org/faq' };
    const again = await ingestPaths(handle.store.db, [files.dir], { kb: 'links', sourceUrls: moved });
    expect(again).toMatchObject({
      kb: { version: 2 },
      added: 0,
      changed: 0,
      unchanged: 5,
      relinked: 3,
      relinkedFacts: 3,
      facts: 0,
      retiredFacts: 0,
    });
    expect((await active()).map((fact) => fact.id)).toEqual(before.map((fact) => fact.id));
    expect(await evidenceFor('What is the daily ward charge limit?')).toMatchObject({ url: 'https://example.gov.sg/booklet-2026.pdf' });
    expect(await evidenceFor('When does the canteen serve breakfast?')).toMatchObject({ url: 'https://help.example.org/faq' });
    expect(await evidenceFor('How much is a parking permit?')).toMatchObject({ url: 'https://faq.example.org/parking' });
    // the same links again change nothing
    expect(await ingestPaths(handle.store.db, [files.dir], { kb: 'links', sourceUrls: moved })).toMatchObject({
      kb: { version: 2 },
      relinked: 0,
    });
  });
});
