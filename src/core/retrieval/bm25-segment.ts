import { Bm25Builder, type Bm25Arrays, type Bm25Params, type IndexableFact } from './bm25-builder.js';
import { KeyPositions } from './key-positions.js';
import { TermDictionary } from './term-dictionary.js';

/**
 * One immutable part of a BM25 index (a segment, in Lucene's terms): the facts added together, with their own
 * term dictionary and postings in typed arrays. A Bm25Index is a list of segments plus the facts deleted from
 * them; statistics (document frequencies, average length) are summed across segments at search time, so a
 * segment never changes once built. About 0.2 KB per fact of handbook sentences.
 */
export class Bm25Segment {
  private readonly positions: KeyPositions;
  private readonly terms: TermDictionary;

  /** A segment of sealed arrays (a builder's, a worker's or a snapshot's). */
  constructor(readonly arrays: Bm25Arrays) {
    this.positions = new KeyPositions(arrays.keys);
    this.terms = new TermDictionary(arrays.terms);
  }

  /** A segment of these facts, built at once. */
  static of(facts: Iterable<IndexableFact>, params: Bm25Params): Bm25Segment {
    const builder = new Bm25Builder();
    for (const fact of facts) builder.add(fact);
    const sealing = builder.seal(params);
    let sealed = sealing.next();
    while (!sealed.done) sealed = sealing.next(); // all at once
    return new Bm25Segment(sealed.value);
  }

  /**
   * A segment built a slice of facts at a time, awaiting `pause` between slices (the caller passes a yield to
   * its event loop): a large knowledge base never holds the process for longer than one slice. Facts may come
   * in pages (an async iterable).
   */
  static async build(
    facts: Iterable<IndexableFact> | AsyncIterable<IndexableFact>,
    options: {
      readonly pause: () => Promise<void>;
      /** Facts indexed between pauses at most. @default 500 */
      readonly sliceSize?: number;
      /** Time one slice may take at most, in ms (a request waits for the slice in progress). @default 4 */
      readonly sliceMs?: number;
      readonly params: Bm25Params;
    },
  ): Promise<Bm25Segment> {
    const builder = new Bm25Builder();
    const slice = options.sliceSize ?? 500;
    const sliceMs = options.sliceMs ?? 4;
    let inSlice = 0;
    let sliceStart = performance.now();
    for await (const fact of facts) {
      builder.add(fact);
      inSlice += 1;
      // A request in progress waits for the slice at each turn of the event loop it takes: slices are kept
      // short in time, not only in facts (checked every 16 facts).
      if (inSlice === slice || ((inSlice & 15) === 0 && performance.now() - sliceStart >= sliceMs)) {
        await options.pause();
        inSlice = 0;
        sliceStart = performance.now();
      }
    }
    const sealing = builder.seal(options.params);
    let sealed = sealing.next();
    while (!sealed.done) {
      await options.pause();
      sealed = sealing.next();
    }
    return new Bm25Segment(sealed.value);
  }

  /** Facts in this segment, deleted ones included. */
  get size(): number {
    return this.arrays.keys.length;
  }

  get totalLength(): number {
    return this.arrays.totalLength;
  }

  get lengths(): Uint32Array {
    return this.arrays.lengths;
  }

  keyAt(doc: number): number {
    return this.arrays.keys[doc] as number;
  }

  /** The position of the fact stored under `key`, or -1. */
  positionOf(key: number): number {
    return this.positions.of(key);
  }

  termId(term: string): number | undefined {
    return this.terms.id(term);
  }

  /** Facts of this segment holding the term (deleted ones included). */
  docFrequency(id: number): number {
    return (this.arrays.postingStart[id + 1] as number) - (this.arrays.postingStart[id] as number);
  }

  /** The term's postings: fact positions ascending, and their term frequencies. */
  postings(id: number): { readonly facts: Uint32Array; readonly tfs: Uint16Array | Uint32Array } {
    const start = this.arrays.postingStart[id] as number;
    const end = this.arrays.postingStart[id + 1] as number;
    return { facts: this.arrays.postingFacts.subarray(start, end), tfs: this.arrays.postingTfs.subarray(start, end) };
  }

  /**
   * No fact of this segment gets more than this × idf from the term, when the index's average length is
   * `avgdl`. The stored bound holds at the segment's own average length; a longer average shrinks every
   * length's norm, by at most the ratio of the averages, so the weight grows by at most that ratio.
   */
  bound(id: number, avgdl: number): number {
    const stored = this.arrays.termBound[id] as number;
    return avgdl > this.arrays.boundAvgdl ? stored * (avgdl / this.arrays.boundAvgdl) : stored;
  }

  /** Term ids of the fact at `doc`. */
  termIdsAt(doc: number): Uint32Array {
    return this.arrays.factTerms.subarray(this.arrays.factStart[doc] as number, this.arrays.factStart[doc + 1] as number);
  }

  /** Terms of the fact at `doc`. */
  termsAt(doc: number): string[] {
    return Array.from(this.termIdsAt(doc), (id) => this.terms.name(id));
  }
}
