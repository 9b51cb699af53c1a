import { describeLimit, formatBytes, type IngestLimits } from '../../config/ingest-limits.js';
import { inflatesWithin, readZipDirectory } from './zip-directory.js';

/** A Word document as HTML, or why it cannot be read. */
export type DocxHtml =
  { readonly ok: true; readonly html: string; readonly warnings: readonly string[] } | { readonly ok: false; readonly reason: string };

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];

/**
 * Converts a .docx to semantic HTML with mammoth (Heading 1–6 styles become
 * h1–h6, Word tables become tables, lists become lists), for the HTML reader.
 * The only file that imports mammoth. Images are left out (not text) and
 * links to outside files are never followed. A package that would inflate beyond the limit is refused before
 * mammoth sees it (see checkPackageSize).
 */
export async function docxToHtml(bytes: Buffer, limits: Pick<IngestLimits, 'maxDocxBytes'>): Promise<DocxHtml> {
  if (startsWith(bytes, OLE)) {
    return {
      ok: false,
      reason: 'not a .docx: a password-protected Word file or an old binary .doc (save an unprotected .docx copy and ingest that)',
    };
  }
  if (!startsWith(bytes, ZIP)) return { ok: false, reason: 'not a .docx file (it is not a ZIP package)' };
  const tooLarge = await checkPackageSize(bytes, limits);
  if (tooLarge !== null) return { ok: false, reason: tooLarge };
  const { default: mammoth } = await loadMammoth();
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })), externalFileAccess: false },
    );
    const errors = result.messages.filter((m) => m.type === 'error').map((m) => m.message);
    if (errors.length > 0 && result.value.trim() === '') return { ok: false, reason: `unreadable .docx: ${errors.join('; ')}` };
    return { ok: true, html: result.value, warnings: errors };
  } catch (error) {
    return { ok: false, reason: `corrupt .docx: ${(error as Error).message}` };
  }
}

/** mammoth, loaded on first use like pdf.js. */
export const loadMammoth = () => import('mammoth');

/**
 * A .docx is a ZIP package: 1 MB of it can inflate to gigabytes. The parts' declared sizes are summed from the
 * ZIP directory before anything is inflated; then each deflated part is inflated, streamed and counted, and
 * stopped as soon as it exceeds its declared size, so a directory that lies is caught at the cost of the limit.
 * Every part counts, read or not (images are not read, but they are seldom compressible).
 */
async function checkPackageSize(bytes: Buffer, limits: Pick<IngestLimits, 'maxDocxBytes'>): Promise<string | null> {
  const directory = readZipDirectory(bytes);
  if (!directory.ok) return `corrupt .docx: ${directory.reason}`;
  const expanded = directory.entries.reduce(
    (sum, entry) => sum + Math.max(entry.declaredBytes, entry.method === 0 ? entry.compressedBytes : 0),
    0,
  );
  if (expanded > limits.maxDocxBytes) {
    return `its parts expand to ${formatBytes(expanded)}, over ${describeLimit('maxDocxBytes', limits.maxDocxBytes, formatBytes(limits.maxDocxBytes))}: a decompression bomb, or a document too large to read`;
  }
  for (const entry of directory.entries) {
    if (entry.method === 8 && !(await inflatesWithin(entry.data, entry.declaredBytes))) {
      return `corrupt or crafted .docx: part ${entry.name} inflates to more than the ${formatBytes(entry.declaredBytes)} its ZIP directory declares`;
    }
  }
  return null;
}

function startsWith(bytes: Buffer, magic: readonly number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}
