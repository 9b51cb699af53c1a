/** A typed array that grows by doubling while an index is built; `view()` is its filled part. */
export class GrowableArray<A extends Uint8Array | Uint16Array | Uint32Array | Float64Array> {
  private data: A;
  private filled = 0;

  constructor(
    private readonly make: (length: number) => A,
    initial = 1024,
  ) {
    this.data = make(initial);
  }

  get length(): number {
    return this.filled;
  }

  push(value: number): void {
    if (this.filled === this.data.length) this.grow(this.filled * 2);
    this.data[this.filled++] = value;
  }

  at(i: number): number {
    return this.data[i] as number;
  }

  /** The filled part, sharing memory with this array (valid until the next push). */
  view(): A {
    return this.data.subarray(0, this.filled) as A;
  }

  /** The filled part in an array of its own length, releasing the spare capacity. */
  trimmed(): A {
    const out = this.make(this.filled);
    out.set(this.view());
    return out;
  }

  /** The same values in another kind of array (a wider one when a value would not fit). */
  widen<B extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(make: (length: number) => B): GrowableArray<B> {
    const wider = new GrowableArray(make, Math.max(this.data.length, 1));
    wider.data.set(this.view());
    wider.filled = this.filled;
    return wider;
  }

  private grow(length: number): void {
    const next = this.make(Math.max(length, 16));
    next.set(this.data);
    this.data = next;
  }
}
