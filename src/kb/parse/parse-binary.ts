import { parseHtml } from './parse-html.js';
import { parsePdf } from './parse-pdf.js';
import { docxToHtml } from './read-docx.js';
import { readPdfText } from './read-pdf.js';
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

/** PDF through pdf.js and the PDF layout reader; .docx through mammoth and the HTML reader. */
export async function parseBinaryDocument(bytes: Buffer, format: BinaryFormat): Promise<BinaryParse> {
  if (format === 'docx') {
    const html = await docxToHtml(bytes);
    return html.ok ? { ok: true, doc: parseHtml(html.html), notes: html.warnings } : { ok: false, skipped: false, reason: html.reason };
  }
  const text = await readPdfText(bytes);
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
  return { ok: true, doc: { title: doc.title, facts: doc.facts }, notes };
}
