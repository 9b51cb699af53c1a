import type { IngestLimits } from '../../config/ingest-limits.js';
import { parseHtml } from './parse-html.js';
import { parsePdf } from './parse-pdf.js';
import { docxToHtml, loadMammoth } from './read-docx.js';
import { loadPdfJs, readPdfText } from './read-pdf.js';
import type { ParsedDocument } from './types.js';

export type BinaryFormat = 'pdf' | 'docx';

/**
 * A binary document read: its facts and notes on parts left out, or why the
 * whole file was left out — skipped (nothing to read, such as a scanned PDF)
 * or failed (encrypted, corrupt, truncated).
 */
export type BinaryParse =
  | { readonly ok: true; readonly doc: ParsedDocument; readonly notes: readonly string[] }
  | { readonly ok: false; readonly skipped: boolean; readonly reason: string };

const EXTENSIONS: Record<string, BinaryFormat> = { pdf: 'pdf', docx: 'docx' };

/** The binary format implied by a file name's extension (case-insensitive), or null. */
export function binaryFormatFromPath(path: string): BinaryFormat | null {
  const name = path.split(/[\\/]/).pop() ?? '';
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? null : (EXTENSIONS[name.slice(dot + 1).toLowerCase()] ?? null);
}

/** Loads the library a format is read with, ahead of reading, so that what reading costs can be told apart. */
export async function loadReader(format: BinaryFormat): Promise<void> {
  await (format === 'pdf' ? loadPdfJs() : loadMammoth());
}

/**
 * PDF through pdf.js and the PDF layout reader; .docx through mammoth and the HTML reader. The page and
 * inflated-size limits apply here; memory and time are bounded by running this in a worker (parse-in-worker.ts).
 */
export async function parseBinaryDocument(
  bytes: Buffer,
  format: BinaryFormat,
  limits: Pick<IngestLimits, 'maxDocxBytes' | 'maxPdfPages'>,
): Promise<BinaryParse> {
  if (format === 'docx') {
    const html = await docxToHtml(bytes, limits);
    return html.ok ? { ok: true, doc: parseHtml(html.html), notes: html.warnings } : { ok: false, skipped: false, reason: html.reason };
  }
  const text = await readPdfText(bytes, limits);
  if (!text.ok) return { ok: false, skipped: false, reason: text.reason };
  const doc = parsePdf(text.pages);
  if (doc.facts.length === 0 && doc.emptyPages.length === text.pages.length) {
    return {
      ok: false,
      skipped: true,
      reason: 'no text layer on any page: a scanned PDF? (Candor does not run OCR; ingest a PDF with text, or its text)',
    };
  }
  const notes = [...text.failedPages, ...doc.emptyPages.map((page) => `p. ${page}: no text layer (a scanned page?), skipped`)];
  return { ok: true, doc: { title: doc.title, facts: doc.facts, url: text.url }, notes };
}
