import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

import { describeLimit, type IngestLimits } from '../../config/ingest-limits.js';
import { httpUrl } from '../../core/text/http-url.js';
import type { PdfPageText, PdfRun } from './pdf-lines.js';

/** The text of a PDF, page by page, or why it cannot be read. Pages that failed are listed, not fatal. */
export type PdfText =
  | {
      readonly ok: true;
      readonly pages: readonly PdfPageText[];
      readonly failedPages: readonly string[];
      /** A link to the document its metadata gives (see documentUrl), or null. */
      readonly url: string | null;
    }
  | { readonly ok: false; readonly reason: string };

/** PDF readers look for %%EOF within the last kilobyte; allow some trailing junk. */
const TAIL_BYTES = 2048;

/**
 * Reads the positioned text runs of every page with Mozilla's pdf.js (the
 * legacy build, which carries the polyfills Node 20 needs). The only file
 * that imports pdf.js. Encrypted, corrupt and truncated files give a reason a
 * person can act on instead of a throw; a truncated file is refused even where
 * pdf.js could recover part of it, so no document is silently half-ingested. A PDF with more pages than the
 * limit is refused before any page is read. Images are never decoded (only text is read); pdf.js cannot
 * bound what a content stream inflates to, so the caller bounds the memory (parse-in-worker.ts).
 */
export async function readPdfText(bytes: Uint8Array, limits: Pick<IngestLimits, 'maxPdfPages'>): Promise<PdfText> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) return { ok: false, reason: 'not a PDF file (no %PDF- header)' };
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES))).toString('latin1');
  if (!tail.includes('%%EOF'))
    return { ok: false, reason: 'truncated PDF: the file ends before its %%EOF marker (copy or download it again)' };
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  let doc: PDFDocumentProxy;
  try {
    doc = await getDocument({
      data: new Uint8Array(bytes), // pdf.js may take ownership of the buffer it is given
      verbosity: VerbosityLevel.ERRORS,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      maxImageSize: 0, // every image is left out undecoded: Candor reads text only
    }).promise;
  } catch (error) {
    return { ok: false, reason: openFailure(error) };
  }
  try {
    if (doc.numPages > limits.maxPdfPages) {
      return {
        ok: false,
        reason: `${doc.numPages} pages, over ${describeLimit('maxPdfPages', limits.maxPdfPages)}: split it, or raise the limit`,
      };
    }
    const pages: PdfPageText[] = [];
    const failedPages: string[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      try {
        const page = await doc.getPage(number);
        pages.push({ page: number, runs: await pageRuns(page) });
        page.cleanup();
      } catch (error) {
        failedPages.push(`p. ${number}: ${(error as Error).message}`);
      }
    }
    return { ok: true, pages, failedPages, url: await documentUrl(doc) };
  } finally {
    await doc.destroy();
  }
}

/**
 * pdf.js, loaded on first use: every other command (ask, serve) starts without it. Its worker module (the
 * parser, run in this thread as the "fake worker" in Node) is loaded with it rather than by the first getDocument.
 */
export async function loadPdfJs() {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // @ts-expect-error pdf.js ships no types for its worker module; only its side of the fake worker is wanted
  await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  return pdfjs;
}

/**
 * A link to the document in its metadata. No PDF field is meant for one, so these are read, first
 * http(s) URL wins: XMP prism:url (PRISM, used by publishers), dc:identifier and dc:source (Dublin Core,
 * when they hold a URL), then a URL or URI entry of the document information dictionary (custom
 * properties, as Word and PDF tools write them). Metadata that cannot be read is no link, not a failure.
 */
async function documentUrl(doc: PDFDocumentProxy): Promise<string | null> {
  try {
    const { info, metadata } = await doc.getMetadata();
    const custom = (info as { Custom?: Record<string, unknown> } | null)?.Custom ?? {};
    const xmp = (name: string): unknown => metadata?.get(name);
    for (const value of [xmp('prism:url'), xmp('dc:identifier'), xmp('dc:source'), custom.URL, custom.URI, custom.Url]) {
      const url = [value]
        .flat()
        .map((candidate) => httpUrl(candidate))
        .find((candidate) => candidate !== null);
      if (url) return url;
    }
  } catch {
    // a link is a nicety: unreadable metadata leaves the document without one
  }
  return null;
}

async function pageRuns(page: PDFPageProxy): Promise<PdfRun[]> {
  const content = await page.getTextContent();
  const bold = await boldFonts(page, Object.keys(content.styles));
  const runs: PdfRun[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str.trim() === '') continue;
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
    runs.push({
      text: item.str,
      x,
      y,
      width: item.width,
      size: Math.hypot(c, d) || Math.hypot(a, b) || item.height,
      bold: bold.has(item.fontName),
    });
  }
  return runs;
}

/**
 * The page's bold fonts. Text content names fonts only by an internal id; the
 * font objects (with their PostScript names and weight flag) are loaded by
 * building the page's operator list. Without them every run counts as regular.
 */
async function boldFonts(page: PDFPageProxy, ids: readonly string[]): Promise<Set<string>> {
  const bold = new Set<string>();
  try {
    await page.getOperatorList();
    for (const id of ids) {
      if (!page.commonObjs.has(id)) continue;
      const font = page.commonObjs.get(id) as { name?: string; bold?: boolean; black?: boolean } | null;
      if (font?.bold === true || font?.black === true || /bold|black|heavy|semibold|demi/i.test(font?.name ?? '')) bold.add(id);
    }
  } catch {
    // weight is a hint for headings, not essential
  }
  return bold;
}

function openFailure(error: unknown): string {
  const { name, message } = error as { name?: string; message?: string };
  if (name === 'PasswordException')
    return 'password-protected PDF: it cannot be read without its password (save an unprotected copy and ingest that)';
  if (name === 'InvalidPDFException') return `corrupt PDF: ${message ?? 'invalid structure'}`;
  return `unreadable PDF: ${message ?? String(error)}`;
}
