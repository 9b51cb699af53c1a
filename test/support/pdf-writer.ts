import { createHash } from 'node:crypto';

/** One line of text placed on a page (PDF units: 1/72 inch, origin bottom left). */
export interface PdfTextLine {
  readonly x: number;
  readonly y: number;
  readonly size: number;
  readonly bold?: boolean;
  readonly text: string;
}

/**
 * Writes a small, valid PDF by hand: A4 pages of Helvetica / Helvetica-Bold
 * text (the standard fonts every reader has), a cross-reference table and a
 * trailer. With `userPassword` the file is encrypted with the PDF standard
 * security handler (revision 2, 40-bit RC4), as any PDF tool does when asked
 * for a password to open the file. Test support only.
 */
export function writePdf(pages: readonly (readonly PdfTextLine[])[], options: { userPassword?: string } = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body);
  const regular = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const pagesId = objects.length + pages.length * 2 + 1;
  const security = options.userPassword === undefined ? null : standardSecurity(options.userPassword);
  const kids: number[] = [];
  for (const lines of pages) {
    const content = lines
      .map(
        (line) => `BT /${line.bold ? 'F2' : 'F1'} ${line.size} Tf ${line.x} ${line.y} Td (${line.text.replace(/[()\\]/g, '\\$&')}) Tj ET`,
      )
      .join('\n');
    const id = objects.length + 1;
    const data = security === null ? Buffer.from(content, 'latin1') : security.encrypt(id, Buffer.from(content, 'latin1'));
    add(`<< /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> >> /Contents ${id} 0 R >>`,
      ),
    );
  }
  add(`<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  const catalog = add(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
  const encrypt = security === null ? null : add(security.dictionary);
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = Buffer.byteLength(out, 'latin1');
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const extra = encrypt === null ? '' : ` /Encrypt ${encrypt} 0 R /ID [<${FILE_ID.toString('hex')}> <${FILE_ID.toString('hex')}>]`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${extra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const FILE_ID = Buffer.from('c4ad0a5a1e0b4b1f9d6a3c2e8f7b6a5d', 'hex');
const PERMISSIONS = -4;

/** PDF 1.7 §7.6.3, algorithms 2, 3 and 4 (revision 2): the O and U entries and the per-object keys. */
function standardSecurity(userPassword: string): { dictionary: string; encrypt: (objectId: number, data: Buffer) => Buffer } {
  const padded = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PAD]).subarray(0, 32);
  const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
  const owner = rc4(md5(padded(`${userPassword}-owner`)).subarray(0, 5), padded(userPassword));
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(PERMISSIONS);
  const key = md5(padded(userPassword), owner, permissions, FILE_ID).subarray(0, 5);
  const user = rc4(key, PAD);
  return {
    dictionary: `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${PERMISSIONS} >>`,
    encrypt: (objectId, data) =>
      rc4(md5(key, Buffer.from([objectId & 0xff, (objectId >> 8) & 0xff, (objectId >> 16) & 0xff, 0, 0])).subarray(0, 10), data),
  };
}

/** RC4 (the cipher of PDF revision 2 encryption; OpenSSL 3 no longer offers it by default). */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}
