import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';

import { inflatesWithin, readZipDirectory } from '../../../src/kb/parse/zip-directory.js';
import { deflateBomb } from '../../support/deflate-bomb.js';
import { writeDocx } from '../../support/docx-writer.js';
import { writeZip } from '../../support/zip-writer.js';

const entries = (bytes: Buffer) => {
  const directory = readZipDirectory(bytes);
  if (!directory.ok) throw new Error(directory.reason);
  return directory.entries;
};

describe('reading a ZIP directory without inflating', () => {
  it('names, methods and declared sizes of a Word document written by JSZip', async () => {
    const docx = await writeDocx([{ heading: 1, text: 'Visitor Policy' }, { paragraph: 'Visitors sign in at the lobby.' }]);
    const zip = await JSZip.loadAsync(docx);
    const read = entries(docx);
    expect(read.map((entry) => entry.name)).toEqual(Object.keys(zip.files));
    for (const entry of read.filter((e) => !e.name.endsWith('/'))) {
      const content = await zip.file(entry.name)!.async('nodebuffer');
      expect(entry).toMatchObject({ method: 8, declaredBytes: content.length });
      expect(await inflatesWithin(entry.data, content.length)).toBe(true);
      expect(await inflatesWithin(entry.data, content.length - 1)).toBe(false);
    }
  });

  it('sizes, offsets and the entry count kept in ZIP64 records', () => {
    const bomb = deflateBomb({ bytes: 5_000_000 });
    const zip = writeZip(
      [
        { name: 'a.xml', content: '<a/>' },
        { name: 'b.bin', deflated: bomb },
      ],
      { zip64: true },
    );
    expect(entries(zip).map(({ name, declaredBytes, compressedBytes }) => ({ name, declaredBytes, compressedBytes }))).toEqual([
      { name: 'a.xml', declaredBytes: 4, compressedBytes: 6 },
      { name: 'b.bin', declaredBytes: 5_000_000, compressedBytes: bomb.raw.length },
    ]);
  });

  it('a part that inflates to more than it declares is caught at the declared size, streamed', async () => {
    const [part] = entries(writeZip([{ name: 'word/document.xml', deflated: deflateBomb({ bytes: 1024 ** 3 }), declaredBytes: 10_000 }]));
    const started = Date.now();
    expect(await inflatesWithin(part!.data, part!.declaredBytes)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000); // 10 kB inflated, not 1 GiB
  });

  it('a truncated or foreign file is not a ZIP', () => {
    const zip = writeZip([{ name: 'a.xml', content: '<a/>' }]);
    expect(readZipDirectory(zip.subarray(0, zip.length - 10))).toEqual({
      ok: false,
      reason: 'no ZIP end of central directory (truncated?)',
    });
    expect(readZipDirectory(Buffer.from('PK\x03\x04 not really'))).toMatchObject({ ok: false });
    expect(readZipDirectory(Buffer.concat([zip.subarray(0, 20), zip.subarray(-22)]))).toMatchObject({ ok: false });
  });
});
