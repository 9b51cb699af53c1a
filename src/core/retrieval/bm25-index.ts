import { contentTerms } from '../text/tokenize.js';
import { Bm25Builder, type Bm25Arrays, type Bm25Params, type IndexableFact } from './bm25-builder.js';
import { KeyPositions } from './key-positions.js';
import { topByMaxScore, type PostingList } from './max-score.js';

export type { Bm25Params, IndexableFact } from './bm25-builder.js';

export interface Bm25Hit {
  readonly key: number;
  /** Raw BM25 score. */
  readonly raw: number;
  /**
   * BM25 divided by the score of an ideal fact holding every query term once at
   * average length: about the IDF-weighted share of the question the fact
   * matches, in [0, 1], comparable across knowledge bases of any size.
   */
  readonly normalised: number;
}

const DEFAULT_PARAMS: Bm25Params = { k1: 1.2, b: 0.75 };

/**
 * An in-memory BM25 index in typed arrays: each term is interned once, its postings (fact positions and term
 * frequencies) are one slice of two flat arrays, and each fact's term ids are kept (its terms, for the gate
 * and for leave-one-out). About 0.2 KB per fact of handbook sentences. Top-k search walks postings a fact at
 * a time and skips the facts that cannot reach the top k (MaxScore), with the same scores and order as
 * scoring every posting. Exclusion sets let leave-one-out evaluation ask as if facts were absent, with
 * document frequencies adjusted to match.
 */
export class Bm25Index {
  // Set by adopt(), from Bm25Builder's seal() (see Bm25Arrays).
  private termIds: ReadonlyMap<string, number> = new Map();
  private termNames: readonly string[] = [];
  private factTerms: Uint32Array = new Uint32Array(0);
  private factStart: Uint32Array = new Uint32Array(1);
  private keys: Float64Array = new Float64Array(0);
  private positions = new KeyPositions(this.keys);
  private postingStart: Uint32Array = new Uint32Array(1);
  private postingFacts: Uint32Array = new Uint32Array(0);
  private postingTfs: Uint16Array | Uint32Array = new Uint16Array(0);
  /** Per fact: k1 · (1 − b + b · length / avgdl), the length part of BM25's denominator. */
  private lengthNorm: Float64Array = new Float64Array(0);
  /** Per term: the highest tf · (k1 + 1) / (tf + lengthNorm) of its postings (the term's bound, times idf). */
  private termBound: Float64Array = new Float64Array(0);

  constructor(
    facts: Iterable<IndexableFact>,
    private readonly params: Bm25Params = DEFAULT_PARAMS,
  ) {
    const builder = new Bm25Builder();
    for (const fact of facts) builder.add(fact);
    const sealing = builder.seal(params);
    let sealed = sealing.next();
    while (!sealed.done) sealed = sealing.next(); // all at once
    this.adopt(sealed.value);
  }

  /**
   * Builds the index a slice of facts at a time, awaiting `pause` between slices (the caller passes a yield to
   * its event loop): a large knowledge base never holds the process for longer than one slice. Same index as
   * the constructor's. Facts may come in pages (an async iterable).
   */
  static async build(
    facts: Iterable<IndexableFact> | AsyncIterable<IndexableFact>,
    options: {
      readonly pause: () => Promise<void>;
      /** Facts indexed between pauses at most. @default 500 */
      readonly sliceSize?: number;
      /** Time one slice may take at most, in ms (a request waits for the slice in progress). @default 4 */
      readonly sliceMs?: number;
      readonly params?: Bm25Params;
    },
  ): Promise<Bm25Index> {
    const params = options.params ?? DEFAULT_PARAMS;
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
    const sealing = builder.seal(params);
    let sealed = sealing.next();
    while (!sealed.done) {
      await options.pause();
      sealed = sealing.next();
    }
    const index = new Bm25Index([], params);
    index.adopt(sealed.value);
    return index;
  }

  /** Takes the sealed arrays as this index's own. */
  private adopt(arrays: Bm25Arrays): void {
    this.termIds = arrays.termIds;
    this.termNames = arrays.termNames;
    this.keys = arrays.keys;
    this.positions = new KeyPositions(this.keys);
    this.factTerms = arrays.factTerms;
    this.factStart = arrays.factStart;
    this.postingStart = arrays.postingStart;
    this.postingFacts = arrays.postingFacts;
    this.postingTfs = arrays.postingTfs;
    this.lengthNorm = arrays.lengthNorm;
    this.termBound = arrays.termBound;
  }

  get size(): number {
    return this.keys.length;
  }

  /** The position of the fact stored under `key`, or -1. */
  private positionOf(key: number): number {
    return this.positions.of(key);
  }

  /** Term ids of the fact at `doc`. */
  private termIdsAt(doc: number): Uint32Array {
    return this.factTerms.subarray(this.factStart[doc] as number, this.factStart[doc + 1] as number);
  }

  /** Terms of the fact stored under `key` (empty when unknown). */
  termsOf(key: number): ReadonlySet<string> {
    const doc = this.positionOf(key);
    if (doc < 0) return new Set();
    const terms = new Set<string>();
    for (const id of this.termIdsAt(doc)) terms.add(this.termNames[id] as string);
    return terms;
  }

  /** Number of facts holding `term`, not counting excluded ones. */
  df(term: string, exclude: ReadonlySet<number> = EMPTY): number {
    const id = this.termIds.get(term);
    if (id === undefined) return 0;
    let df = (this.postingStart[id + 1] as number) - (this.postingStart[id] as number);
    for (const key of exclude) {
      const doc = this.positionOf(key);
      if (doc >= 0 && this.termIdsAt(doc).includes(id)) df -= 1;
    }
    return df;
  }

  /** BM25 inverse document frequency, always positive. */
  idf(term: string, exclude: ReadonlySet<number> = EMPTY): number {
    let present = 0;
    for (const key of exclude) if (this.positionOf(key) >= 0) present += 1;
    const n = this.size - present;
    const df = this.df(term, exclude);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Top-k facts for a question, best first; equal scores in the order a term-at-a-time scorer first reaches
   * them (by the first question term they hold, then insertion order).
   */
  search(question: string, k: number, exclude: ReadonlySet<number> = EMPTY): Bm25Hit[] {
    const terms = contentTerms(question);
    if (terms.length === 0 || this.size === 0 || k <= 0) return [];
    const { k1 } = this.params;
    const lists: PostingList[] = [];
    let ideal = 0;
    terms.forEach((term, order) => {
      const idf = this.idf(term, exclude);
      ideal += idf;
      const id = this.termIds.get(term);
      if (id === undefined) return;
      const start = this.postingStart[id] as number;
      const end = this.postingStart[id + 1] as number;
      lists.push({
        order,
        idf,
        facts: this.postingFacts.subarray(start, end),
        tfs: this.postingTfs.subarray(start, end),
        bound: idf * (this.termBound[id] as number),
      });
    });
    const skip = new Set<number>();
    for (const key of exclude) {
      const doc = this.positionOf(key);
      if (doc >= 0) skip.add(doc);
    }
    const keys = this.keys;
    return topByMaxScore(lists, k, { k1, lengthNorm: this.lengthNorm, skip }).map(({ doc, score }) => ({
      key: keys[doc] as number,
      raw: score,
      normalised: ideal > 0 ? Math.min(1, score / ideal) : 0,
    }));
  }
}

const EMPTY: ReadonlySet<number> = new Set();
