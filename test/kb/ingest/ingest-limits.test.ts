import { randomBytes } from 'node:crypto';
import { truncateSync } from 'node:fs';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_INGEST_LIMITS } from '../../../src/config/ingest-limits.js';
import { ingestPaths, type IngestSummary } from '../../../src/kb/ingest/ingest.js';
import { facts, knowledgeBases } from '../../../src/store/schema.js';
import { tempFiles, testConfig } from '../../support/compose.js';
import { useTestStore } from '../../support/stores.js';
import { docxBomb, GiB, pdfBomb } from './bomb-fixtures.js';
import { guidePdf, visitorPolicyDocx } from './document-fixtures.js';

const MiB = 1024 * 1024;
/** Well below the default (1024), so that the PDF bomb costs this test little memory. */
const MAX_PARSE_MB = 128;

describe('ingestion limits', () => {
  const handle = useTestStore('pglite');

  /**
   * Decompression bombs of 1 GiB (about 1 MB on disk), random bytes named .txt and a 200 MB file, ingested in one
   * batch with readable documents: each fails alone, naming its limit and setting, and the rest is stored.
   */
  describe('files over a limit', () => {
    const files = tempFiles({}, 'candor-limits-');
    let summary: IngestSummary;
    const reason = (name: string) => summary.errors.find((error) => error.path === files.path(name))?.reason;

    beforeAll(async () => {
      files.write('a-bomb.docx', docxBomb({ bytes: GiB }));
      files.write('b-lying.docx', docxBomb({ bytes: GiB, declaredBytes: 10_000 }));
      files.write('c-bomb.pdf', pdfBomb({ bytes: GiB }));
      const random = randomBytes(2 * MiB).map((byte) => byte || 1); // no NUL bytes, which were refused already
      files.write('d-random.txt', random);
      truncateSync(files.write('e-huge.md', ''), 200 * MiB); // sparse: no disk space, and never read
      files.write('f-guide.pdf', guidePdf());
      files.write('g-visitor-policy.docx', await visitorPolicyDocx());
      files.write('h-notes.md', '# Notes\n\nThe lobby opens at 8 am on weekdays.\n');
      summary = await ingestPaths(handle.store.db, [files.dir], { kb: 'limits', limits: { maxParseMb: MAX_PARSE_MB } });
    });
    afterAll(() => files.cleanup());

    it('a .docx whose ZIP directory declares 1 GiB of parts is refused before anything is inflated', () => {
      expect(reason('a-bomb.docx')).toBe(
        'its parts expand to 1.0 GiB, over the limit of 256 MiB (CANDOR_INGEST_MAX_DOCX_BYTES=268435456): a decompression bomb, or a document too large to read',
      );
    });

    it('a .docx whose ZIP directory understates a 1 GiB part is stopped once the part passes its declared size', () => {
      expect(reason('b-lying.docx')).toBe(
        'corrupt or crafted .docx: part word/document.xml inflates to more than the 9.8 KiB its ZIP directory declares',
      );
    });

    it('a PDF whose content stream inflates to 1 GiB is stopped at the memory limit', () => {
      expect(reason('c-bomb.pdf')).toBe(
        `reading it needed more memory than the limit of ${MAX_PARSE_MB} MiB (CANDOR_INGEST_MAX_PARSE_MB=${MAX_PARSE_MB}): a decompression bomb, or a document too large to read within the limit`,
      );
    });

    it('random bytes named .txt are not text', () => {
      expect(reason('d-random.txt')).toMatch(
        /^not text \((\d+)% undecodable or control characters\): binary content, or text in an encoding/,
      );
      expect(Number(/\((\d+)%/.exec(reason('d-random.txt') ?? '')?.[1])).toBeGreaterThan(50);
    });

    it('a 200 MB file is refused by its size, before it is read', () => {
      expect(reason('e-huge.md')).toBe('200 MiB, larger than the limit of 50 MiB (CANDOR_INGEST_MAX_FILE_BYTES=52428800)');
    });

    it('the rest of the batch is stored: a PDF, a Word document and a Markdown file', async () => {
      expect(summary.errors).toHaveLength(5);
      expect(summary).toMatchObject({ documents: 3, added: 3, facts: 15, skipped: [] });
      expect(summary.byType).toEqual({
        docx: { files: 1, facts: 5, tableRows: 3, skipped: 0, errors: 2 },
        pdf: { files: 1, facts: 9, tableRows: 4, skipped: 0, errors: 1 },
        text: { files: 0, facts: 0, tableRows: 0, skipped: 0, errors: 1 },
        markdown: { files: 1, facts: 1, tableRows: 0, skipped: 0, errors: 1 },
      });
      const [kb] = await handle.store.db.select().from(knowledgeBases).where(eq(knowledgeBases.name, 'limits'));
      const stored = await handle.store.db
        .select({ source: facts.source })
        .from(facts)
        .where(and(eq(facts.kbId, kb!.id), isNull(facts.retiredInVersion)));
      expect(new Set(stored.map((fact) => fact.source.split(' › ')[0]))).toEqual(
        new Set(['f-guide.pdf', 'g-visitor-policy.docx', 'h-notes.md']),
      );
    });
  });

  describe('page, memory and time limits', () => {
    const files = tempFiles({}, 'candor-limits-more-');
    afterAll(() => files.cleanup());

    const ingestWith = async (name: string, content: Uint8Array, limits: Parameters<typeof ingestPaths>[2]['limits']) => {
      files.write(name, content);
      const summary = await ingestPaths(handle.store.db, [files.path(name)], { kb: name, limits });
      return summary.errors.map((error) => error.reason);
    };

    it('a PDF with more pages than the limit is refused before its pages are read', async () => {
      expect(await ingestWith('guide.pdf', guidePdf(), { maxPdfPages: 1 })).toEqual([
        '2 pages, over the limit of 1 (CANDOR_INGEST_MAX_PDF_PAGES=1): split it, or raise the limit',
      ]);
    });

    it('a .docx within the size limit that takes more memory than the limit to read fails alone', async () => {
      // 2 MB of Word paragraphs: mammoth holds well over 64 MB of objects for them.
      expect(await ingestWith('paragraphs.docx', docxBomb({ bytes: 2_000_000 }), { maxParseMb: 64 })).toEqual([
        expect.stringMatching(/^reading it needed more memory than the limit of 64 MiB \(CANDOR_INGEST_MAX_PARSE_MB=64\)/),
      ]);
    });

    it('a document that takes longer than the limit to read fails alone', async () => {
      expect(await ingestWith('slow.pdf', guidePdf(), { parseTimeoutMs: 1 })).toEqual([
        'reading it took longer than the limit of 0.001 s (CANDOR_INGEST_PARSE_TIMEOUT_MS=1)',
      ]);
    });
  });
});

describe('the limits as settings', () => {
  it('default to the documented limits, and each setting sets its limit', () => {
    expect(testConfig().ingest).toEqual(DEFAULT_INGEST_LIMITS);
    const env = {
      CANDOR_INGEST_MAX_FILE_BYTES: '1000000',
      CANDOR_INGEST_MAX_DOCX_BYTES: '2000000',
      CANDOR_INGEST_MAX_PDF_PAGES: '30',
      CANDOR_INGEST_MAX_PARSE_MB: '256',
      CANDOR_INGEST_PARSE_TIMEOUT_MS: '5000',
    };
    expect(testConfig(env).ingest).toEqual({
      maxFileBytes: 1e6,
      maxDocxBytes: 2e6,
      maxPdfPages: 30,
      maxParseMb: 256,
      parseTimeoutMs: 5000,
    });
    expect(() => testConfig({ CANDOR_INGEST_MAX_PDF_PAGES: '0' })).toThrow(/CANDOR_INGEST_MAX_PDF_PAGES/);
  });
});
