const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A term dictionary's arrays: what a worker hands over without copying, and what a snapshot stores. */
export interface TermDictionaryArrays {
  /** Every term's UTF-8 bytes, one after another, term id order. */
  readonly bytes: Uint8Array;
  /** Term t's bytes are bytes[offsets[t] .. offsets[t + 1]). */
  readonly offsets: Uint32Array;
  /** An open-addressing hash table (linear probing) of term ids by their bytes' FNV-1a hash; -1: empty. */
  readonly slots: Int32Array;
}

/**
 * A segment's terms and their ids, in typed arrays only: no string or map per term, so a segment built in a
 * worker thread or read from a snapshot is used as it comes (no object rebuilt on the main thread).
 */
export class TermDictionary {
  private readonly mask: number;

  constructor(readonly arrays: TermDictionaryArrays) {
    this.mask = arrays.slots.length - 1;
  }

  /** The dictionary of these terms, term i having id i. */
  static of(names: readonly string[]): TermDictionary {
    const encoded = names.map((name) => encoder.encode(name));
    const offsets = new Uint32Array(names.length + 1);
    for (let i = 0; i < encoded.length; i++) offsets[i + 1] = (offsets[i] as number) + (encoded[i] as Uint8Array).length;
    const bytes = new Uint8Array(offsets[names.length] as number);
    encoded.forEach((term, i) => bytes.set(term, offsets[i] as number));
    let size = 16;
    while (size < names.length * 2) size *= 2;
    const slots = new Int32Array(size).fill(-1);
    encoded.forEach((term, id) => {
      let slot = hash(term, 0, term.length) & (size - 1);
      while ((slots[slot] as number) >= 0) slot = (slot + 1) & (size - 1);
      slots[slot] = id;
    });
    return new TermDictionary({ bytes, offsets, slots });
  }

  get size(): number {
    return this.arrays.offsets.length - 1;
  }

  /** The id of a term, or undefined. */
  id(term: string): number | undefined {
    const { bytes, offsets, slots } = this.arrays;
    const wanted = encoder.encode(term);
    for (let slot = hash(wanted, 0, wanted.length) & this.mask; ; slot = (slot + 1) & this.mask) {
      const id = slots[slot] as number;
      if (id < 0) return undefined;
      const start = offsets[id] as number;
      if ((offsets[id + 1] as number) - start === wanted.length && sameBytes(bytes, start, wanted)) return id;
    }
  }

  name(id: number): string {
    return decoder.decode(this.arrays.bytes.subarray(this.arrays.offsets[id] as number, this.arrays.offsets[id + 1] as number));
  }
}

/** FNV-1a, 32 bits, of bytes[from .. to). */
function hash(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

function sameBytes(bytes: Uint8Array, start: number, wanted: Uint8Array): boolean {
  for (let i = 0; i < wanted.length; i++) if (bytes[start + i] !== wanted[i]) return false;
  return true;
}
