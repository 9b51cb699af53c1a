import { crc32, deflateRawSync } from 'node:zlib';

import type { Deflated } from './deflate-bomb.js';

/** A ZIP entry: content to deflate, or data deflated already (a bomb), optionally declaring another size than it has. */
export type ZipEntry =
  | { readonly name: string; readonly content: string | Buffer }
  | { readonly name: string; readonly deflated: Deflated; readonly declaredBytes?: number };

/**
 * Writes a ZIP archive (deflated entries and a central directory) whose sizes may lie, as a crafted file's do:
 * JSZip cannot write an entry it has not compressed itself. With `zip64`, the central directory keeps its sizes,
 * offsets and count in ZIP64 records, as some writers do for every archive. Test support only.
 */
export function writeZip(entries: readonly ZipEntry[], options: { zip64?: boolean } = {}): Buffer {
  const zip64 = options.zip64 === true;
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const deflated = 'deflated' in entry ? entry.deflated : null;
    const content = 'content' in entry ? Buffer.from(entry.content) : null;
    const data = deflated?.raw ?? deflateRawSync(content as Buffer);
    const crc = deflated?.crc32 ?? crc32(content as Buffer) >>> 0;
    const size = content?.length ?? ('declaredBytes' in entry ? entry.declaredBytes : undefined) ?? (deflated as Deflated).inflatedBytes;
    const header = (signature: number, at: number, sizes: readonly [number, number]) => {
      const out = Buffer.alloc(at + 26);
      out.writeUInt32LE(signature, 0);
      out.writeUInt16LE(20, at); // version needed
      out.writeUInt16LE(0x0800, at + 2); // UTF-8 names
      out.writeUInt16LE(8, at + 4); // deflate
      out.writeUInt32LE(crc, at + 10);
      out.writeUInt32LE(sizes[0], at + 14);
      out.writeUInt32LE(sizes[1], at + 18);
      out.writeUInt16LE(name.length, at + 22);
      return out;
    };
    locals.push(header(0x04034b50, 4, [data.length, size]), name, data);
    const record = Buffer.concat([header(0x02014b50, 6, zip64 ? [0xffffffff, 0xffffffff] : [data.length, size]), Buffer.alloc(14)]);
    record.writeUInt32LE(zip64 ? 0xffffffff : offset, 42);
    if (zip64) {
      const extra = Buffer.alloc(28);
      extra.writeUInt16LE(1, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(data.length), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
      record.writeUInt16LE(extra.length, 30);
      central.push(record, name, extra);
    } else {
      central.push(record, name);
    }
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xffff : entries.length, 8);
  end.writeUInt16LE(zip64 ? 0xffff : entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(zip64 ? 0xffffffff : offset, 16);
  if (!zip64) return Buffer.concat([...locals, directory, end]);
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeBigUInt64LE(BigInt(entries.length), 24);
  record.writeBigUInt64LE(BigInt(entries.length), 32);
  record.writeBigUInt64LE(BigInt(directory.length), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([...locals, directory, record, locator, end]);
}
