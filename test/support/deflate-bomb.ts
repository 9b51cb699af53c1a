import { constants, crc32, deflateRawSync } from 'node:zlib';

/** Bytes compressed per segment; a segment is deflated once and repeated, so a GiB costs the test about a MiB. */
const SEGMENT = 1 << 20;
const ADLER_MOD = 65_521;

/** Raw deflate data and what it inflates to, computed without ever holding the inflated bytes. */
export interface Deflated {
  /** Raw deflate (RFC 1951) data, ending in a final block. */
  readonly raw: Buffer;
  readonly inflatedBytes: number;
  /** CRC-32 of the inflated bytes (ZIP). */
  readonly crc32: number;
  /** Adler-32 of the inflated bytes (zlib, PDF FlateDecode). */
  readonly adler32: number;
}

/**
 * A deflate bomb: `head`, then `unit` repeated until the whole is at least `bytes` long, then `tail`. Each part
 * is deflated on its own and ended with a sync flush (byte-aligned, not final), so the parts concatenate into one
 * valid stream; the repeated segment is compressed once. Test support only.
 */
export function deflateBomb({
  bytes,
  unit = '\0',
  head = '',
  tail = '',
}: {
  bytes: number;
  unit?: string;
  head?: string;
  tail?: string;
}): Deflated {
  const unitBytes = Buffer.from(unit);
  const segment = Buffer.alloc(SEGMENT - (SEGMENT % unitBytes.length), unitBytes);
  const parts = [Buffer.from(head)];
  for (let left = bytes - head.length - tail.length; left > 0; left -= segment.length) {
    parts.push(left >= segment.length ? segment : segment.subarray(0, Math.ceil(left / unitBytes.length) * unitBytes.length));
  }
  parts.push(Buffer.from(tail));
  const compressed = new Map<Buffer, Buffer>();
  const sums = new Map<Buffer, { s: number; t: number }>();
  const raw: Buffer[] = [];
  let crc = 0;
  let a = 1;
  let b = 0;
  let inflatedBytes = 0;
  for (const part of parts.filter((p) => p.length > 0)) {
    if (!compressed.has(part)) compressed.set(part, deflateRawSync(part, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }));
    raw.push(compressed.get(part) as Buffer);
    // Adler-32 carried over a part: a += S, b += n·a + T, where S = Σ dᵢ and T = Σ (n − i)·dᵢ.
    let sum = sums.get(part);
    if (sum === undefined) {
      sum = { s: 0, t: 0 };
      for (let i = 0; i < part.length; i++) {
        sum.s = (sum.s + part[i]!) % ADLER_MOD;
        sum.t = (sum.t + (part.length - i) * part[i]!) % ADLER_MOD;
      }
      sums.set(part, sum);
    }
    b = (b + (part.length % ADLER_MOD) * a + sum.t) % ADLER_MOD;
    a = (a + sum.s) % ADLER_MOD;
    crc = crc32(part, crc);
    inflatedBytes += part.length;
  }
  raw.push(deflateRawSync(Buffer.alloc(0))); // the final, empty block
  return { raw: Buffer.concat(raw), inflatedBytes, crc32: crc >>> 0, adler32: ((b << 16) | a) >>> 0 };
}

/** The same data in the zlib format (RFC 1950), as a PDF's /FlateDecode filter reads it. */
export function zlibWrap(deflated: Deflated): Buffer {
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(deflated.adler32);
  return Buffer.concat([Buffer.from([0x78, 0xda]), deflated.raw, trailer]);
}
