/** A Word document as HTML, or why it cannot be read. */
export type DocxHtml =
  { readonly ok: true; readonly html: string; readonly warnings: readonly string[] } | { readonly ok: false; readonly reason: string };

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];

/**
 * Converts a .docx to semantic HTML with mammoth (Heading 1–6 styles become
 * h1–h6, Word tables become tables, lists become lists), for the HTML reader.
 * The only file that imports mammoth. Images are left out (not text) and
 * links to outside files are never followed.
 */
export async function docxToHtml(bytes: Buffer): Promise<DocxHtml> {
  if (startsWith(bytes, OLE)) {
    return {
      ok: false,
      reason: 'not a .docx: a password-protected Word file or an old binary .doc (save an unprotected .docx copy and ingest that)',
    };
  }
  if (!startsWith(bytes, ZIP)) return { ok: false, reason: 'not a .docx file (it is not a ZIP package)' };
  const { default: mammoth } = await import('mammoth'); // loaded on first use, like pdf.js
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

function startsWith(bytes: Buffer, magic: readonly number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}
