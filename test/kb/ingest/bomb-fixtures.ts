import { deflateBomb, zlibWrap } from '../../support/deflate-bomb.js';
import { writeZip } from '../../support/zip-writer.js';

export const GiB = 1024 ** 3;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const PARAGRAPH = '<w:p><w:r><w:t>All work and no play makes Jack a dull boy.</w:t></w:r></w:p>';

/**
 * A .docx of about 1 MB whose document part inflates to `bytes` of Word paragraphs. `declaredBytes` makes the
 * ZIP headers lie about that size, as a crafted file's would to slip past a check of the declared sizes.
 */
export function docxBomb({ bytes = GiB, declaredBytes }: { bytes?: number; declaredBytes?: number } = {}): Buffer {
  const document = deflateBomb({
    bytes,
    unit: PARAGRAPH,
    head: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>`,
    tail: '<w:sectPr/></w:body></w:document>',
  });
  return writeZip([
    {
      name: '[Content_Types].xml',
      content:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      content:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', deflated: document, ...(declaredBytes === undefined ? {} : { declaredBytes }) },
  ]);
}

/** A one-page PDF of about 1 MB whose /FlateDecode content stream inflates to `bytes`: a line of text, then spaces. */
export function pdfBomb({ bytes = GiB }: { bytes?: number } = {}): Buffer {
  const content = zlibWrap(deflateBomb({ bytes, unit: ' ', head: 'BT /F1 12 Tf 72 712 Td (A page with a bomb) Tj ET\n' }));
  const objects: (string | Buffer)[][] = [
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'],
    [`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, content, '\nendstream'],
    ['<< /Type /Page /Parent 4 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 1 0 R >> >> /Contents 2 0 R >>'],
    ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    ['<< /Type /Catalog /Pages 4 0 R >>'],
  ];
  const out: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = out[0]!.length;
  const offsets = objects.map((parts, i) => {
    const offset = length;
    for (const part of [`${i + 1} 0 obj\n`, ...parts, '\nendobj\n']) {
      const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
      out.push(bytes);
      length += bytes.length;
    }
    return offset;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 5 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(out);
}
