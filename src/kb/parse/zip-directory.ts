import { createInflateRaw } from 'node:zlib';

/** One entry of a ZIP archive's central directory: what it declares, and where its data is. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflated; anything else is not read by the .docx reader. */
  readonly method: number;
  readonly compressedBytes: number;
  /** The size it declares once inflated: a crafted file may lie. */
  readonly declaredBytes: number;
  /** Its compressed data. */
  readonly data: Uint8Array;
}

export type ZipDirectory = { readonly ok: true; readonly entries: readonly ZipEntry[] } | { readonly ok: false; readonly reason: string };

const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

/**
 * Reads a ZIP archive's central directory (APPNOTE 4.3, with ZIP64 sizes and offsets) without inflating
 * anything: the names, methods, declared sizes and data of its entries. Pure.
 */
export function readZipDirectory(bytes: Uint8Array): ZipDirectory {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - MAX_COMMENT); at--) {
    if (view.getUint32(at, true) === END) {
      end = at;
      break;
    }
  }
  if (end < 0) return { ok: false, reason: 'no ZIP end of central directory (truncated?)' };
  let count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) return { ok: false, reason: 'ZIP64 locator missing' };
    const zip64End = Number(view.getBigUint64(locator + 8, true));
    if (zip64End + 56 > bytes.length || view.getUint32(zip64End, true) !== ZIP64_END)
      return { ok: false, reason: 'ZIP64 end record missing' };
    count = Number(view.getBigUint64(zip64End + 32, true));
    offset = Number(view.getBigUint64(zip64End + 48, true));
  }
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== CENTRAL)
      return { ok: false, reason: 'corrupt ZIP central directory' };
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const name = Buffer.from(bytes.subarray(offset + 46, offset + 46 + nameLength)).toString('utf8');
    const sizes = zip64Sizes(view, offset + 46 + nameLength, extraLength, {
      declared: view.getUint32(offset + 24, true),
      compressed: view.getUint32(offset + 20, true),
      local: view.getUint32(offset + 42, true),
    });
    if (sizes.local + 30 > bytes.length || view.getUint32(sizes.local, true) !== LOCAL)
      return { ok: false, reason: `corrupt ZIP entry ${name}` };
    const start = sizes.local + 30 + view.getUint16(sizes.local + 26, true) + view.getUint16(sizes.local + 28, true);
    if (start + sizes.compressed > bytes.length) return { ok: false, reason: `ZIP entry ${name} runs past the end of the file` };
    entries.push({
      name,
      method: view.getUint16(offset + 10, true),
      compressedBytes: sizes.compressed,
      declaredBytes: sizes.declared,
      data: bytes.subarray(start, start + sizes.compressed),
    });
    offset += 46 + nameLength + extraLength + view.getUint16(offset + 32, true);
  }
  return { ok: true, entries };
}

/** Sizes and offset saturated at 0xFFFFFFFF are in the ZIP64 extra field (id 1), in this order, only those that are. */
function zip64Sizes(view: DataView, at: number, length: number, sizes: { declared: number; compressed: number; local: number }) {
  const out = { ...sizes };
  for (let field = at; field + 4 <= at + length; field += 4 + view.getUint16(field + 2, true)) {
    if (view.getUint16(field, true) !== 1) continue;
    let next = field + 4;
    for (const key of ['declared', 'compressed', 'local'] as const) {
      if (out[key] !== 0xffffffff || next + 8 > at + length) continue;
      out[key] = Number(view.getBigUint64(next, true));
      next += 8;
    }
  }
  return out;
}

/**
 * Whether deflated data inflates to no more than `maxBytes`. Streamed and counted, never held: a part that
 * lies about its size costs at most `maxBytes` of inflating. Data that fails to inflate is not a lie about
 * its size (whoever reads the part reports it), so it passes.
 */
export function inflatesWithin(data: Uint8Array, maxBytes: number): Promise<boolean> {
  return new Promise((resolve) => {
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    let total = 0;
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        inflate.destroy();
        resolve(false);
      }
    });
    inflate.on('end', () => resolve(true));
    inflate.on('error', () => resolve(true));
    inflate.end(data);
  });
}
