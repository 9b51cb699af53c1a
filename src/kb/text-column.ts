import { GrowableArray } from '../core/retrieval/growable-array.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A text column's typed arrays: what a snapshot stores as they are. */
export interface TextColumnArrays {
  /** The values' UTF-8 bytes, one after another. */
  readonly bytes: Uint8Array;
  /** Value i's bytes are bytes[offsets[i] .. offsets[i + 1]). */
  readonly offsets: Float64Array;
  /** 1 where the value is null. */
  readonly nulls: Uint8Array;
}

/**
 * A column of strings kept as UTF-8 bytes, decoded when read: no string object per value, and a column read
 * from a snapshot is used as it comes (nothing parsed). A fact's text is read for the few facts an ask cites.
 */
export class TextColumn {
  private bytes = new Uint8Array(4096);
  private filled = 0;
  private readonly offsets = new GrowableArray((n) => new Float64Array(n));
  private readonly nulls = new GrowableArray((n) => new Uint8Array(n));
  private sealed: TextColumnArrays | null = null;

  constructor() {
    this.offsets.push(0);
  }

  static of(arrays: TextColumnArrays): TextColumn {
    const column = new TextColumn();
    column.sealed = arrays;
    return column;
  }

  get size(): number {
    return (this.sealed ? this.sealed.offsets.length : this.offsets.length) - 1;
  }

  append(value: string | null): void {
    if (this.sealed) throw new Error('TextColumn: values cannot be added once sealed');
    if (value !== null) {
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      this.reserve(value.length * 3);
      this.filled += encoder.encodeInto(value, this.bytes.subarray(this.filled)).written;
    }
    this.offsets.push(this.filled);
    this.nulls.push(value === null ? 1 : 0);
  }

  get(i: number): string | null {
    const { bytes, offsets, nulls } = this.sealed ?? { bytes: this.bytes, offsets: this.offsets.view(), nulls: this.nulls.view() };
    if (nulls[i] === 1) return null;
    return decoder.decode(bytes.subarray(offsets[i] as number, offsets[i + 1] as number));
  }

  /** The column's arrays (sealing it: no more values). */
  arrays(): TextColumnArrays {
    this.sealed ??= { bytes: this.bytes.slice(0, this.filled), offsets: this.offsets.trimmed(), nulls: this.nulls.trimmed() };
    return this.sealed;
  }

  private reserve(more: number): void {
    if (this.filled + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.filled + more, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.filled));
    this.bytes = grown;
  }
}
