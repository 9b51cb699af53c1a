import { contentTerms, forEachWord, wordTerms } from '../text/tokenize.js';
import { GrowableArray } from './growable-array.js';
import { KeyPositions } from './key-positions.js';
import { topByMaxScore, type PostingList } from './max-score.js';

/** A fact as the index sees it; `key` is the store's id. */
export interface IndexableFact {
  readonly key: number;
  readonly text: string;
  /** Extra context indexed with the text (the section heading). */
  readonly context?: string | null;
  /** Terms to index without counting towards length (identifier tags such as `#adr0050`). */
  readonly tags?: readonly string[];
}

export interface Bm25Params {
  /** Term-frequency saturation. @default 1.2 */
  readonly k1: number;
  /** Length normalisation. @default 0.75 */
  readonly b: number;
}

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

/** Written words whose term ids are cached while facts are added (the cache starts over when full). */
const WORD_CACHE_SIZE = 200_000;

/** Postings are grouped (sealed) this many facts at a time between pauses (a few ms). */
const SEAL_SLICE = 5_000;

/**
 * An in-memory BM25 index in typed arrays: each term is interned once, its postings (fact positions and term
 * frequencies) are one slice of two flat arrays, and each fact's term ids are kept (its terms, for the gate
 * and for leave-one-out). About 0.2 KB per fact of handbook sentences. Top-k search walks postings a fact at
 * a time and skips the facts that cannot reach the top k (MaxScore), with the same scores and order as
 * scoring every posting. Exclusion sets let leave-one-out evaluation ask as if facts were absent, with
 * document frequencies adjusted to match.
 */
export class Bm25Index {
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[] = [];
  /** While facts are added: each fact's distinct term ids (in first-seen order) and frequencies, lengths, keys. */
  private building: FactsBeingAdded | null = newFactsBeingAdded();
  private totalLength = 0;
  /** While adding: term ids per written word (most words recur), and one fact's term frequencies by id. */
  private readonly wordIds = new Map<string, readonly number[]>();
  private tf = new Uint32Array(1024);
  private readonly seen: number[] = [];

  // Set by seal(). Fact d's term ids are factTerms[factStart[d] .. factStart[d + 1]); the postings of term t
  // are postingFacts[postingStart[t] .. postingStart[t + 1]), fact positions in insertion order.
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
    for (const fact of facts) this.add(fact);
    for (const _ of this.seal()) {
      // all at once
    }
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
    const index = new Bm25Index([], options.params ?? DEFAULT_PARAMS);
    index.building = newFactsBeingAdded();
    const slice = options.sliceSize ?? 500;
    const sliceMs = options.sliceMs ?? 4;
    let inSlice = 0;
    let sliceStart = performance.now();
    for await (const fact of facts) {
      index.add(fact);
      inSlice += 1;
      // A request in progress waits for the slice at each turn of the event loop it takes: slices are kept
      // short in time, not only in facts (checked every 16 facts).
      if (inSlice === slice || ((inSlice & 15) === 0 && performance.now() - sliceStart >= sliceMs)) {
        await options.pause();
        inSlice = 0;
        sliceStart = performance.now();
      }
    }
    for (const _ of index.seal()) await options.pause();
    return index;
  }

  get size(): number {
    return this.building ? this.building.keys.length : this.keys.length;
  }

  private add(fact: IndexableFact): void {
    const adding = this.building;
    if (!adding) throw new Error('Bm25Index: facts cannot be added once the index is built');
    // Term frequencies by term id in `tf`, the fact's distinct ids in first-seen order in `seen`.
    const seen = this.seen;
    seen.length = 0;
    let own = 0;
    this.forEachTermId(fact.text, (id) => {
      const tf = this.scratchTf(id + 1);
      own += 1;
      if (tf[id] === 0) seen.push(id);
      tf[id] = (tf[id] as number) + 1;
    });
    const ownDistinct = seen.length;
    // Context (the heading path) says what the fact is about: each of its terms counts once, and not
    // again where the fact states it, so a heading that repeats the text does not double its weight.
    if (fact.context) {
      this.forEachTermId(fact.context, (id) => {
        const tf = this.scratchTf(id + 1);
        if (tf[id] !== 0) return;
        seen.push(id);
        tf[id] = 1;
      });
    }
    const length = own + seen.length - ownDistinct;
    for (const tag of fact.tags ?? []) {
      const id = this.internTerm(tag);
      const counts = this.scratchTf(id + 1);
      if (counts[id] === 0) seen.push(id);
      counts[id] = 1;
    }
    const counts = this.scratchTf(0);
    adding.starts.push(adding.terms.length);
    for (const id of seen) {
      const frequency = counts[id] as number;
      counts[id] = 0;
      adding.terms.push(id);
      if (frequency > 0xffff && !adding.wideTfs) {
        adding.tfs = adding.tfs.widen((n) => new Uint32Array(n));
        adding.wideTfs = true;
      }
      adding.tfs.push(frequency);
    }
    adding.keys.push(fact.key);
    adding.lengths.push(length);
    this.totalLength += length;
  }

  /** The id of a term, interned on first sight. */
  private internTerm(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIds.set(term, id);
      this.termNames.push(term);
    }
    return id;
  }

  /** Calls `each` with the id of every term of the text, in order (terms cached per written word). */
  private forEachTermId(text: string, each: (id: number) => void): void {
    forEachWord(text, (written) => {
      let ids = this.wordIds.get(written);
      if (!ids) {
        ids = wordTerms(written).map((term) => this.internTerm(term));
        if (this.wordIds.size >= WORD_CACHE_SIZE) this.wordIds.clear();
        this.wordIds.set(written, ids);
      }
      for (const id of ids) each(id);
    });
  }

  /** The per-term frequency scratch array, with room for ids below `size` (all zero between facts). */
  private scratchTf(size: number): Uint32Array {
    if (this.tf.length < size) {
      const grown = new Uint32Array(Math.max(size, this.tf.length * 2, 1024));
      grown.set(this.tf);
      this.tf = grown;
    }
    return this.tf;
  }

  /**
   * Groups the facts' terms into postings (a counting sort by term), yielding every SEAL_SLICE facts so
   * that a caller can pause. Facts stay in insertion order within each posting list.
   */
  private *seal(): Generator<void> {
    const adding = this.building as FactsBeingAdded;
    const size = adding.keys.length;
    const terms = this.termNames.length;
    const factTerms = adding.terms.trimmed();
    const factTfs = adding.tfs.view();
    const factStart = new Uint32Array(size + 1);
    factStart.set(adding.starts.view());
    factStart[size] = factTerms.length;
    const counts = new Uint32Array(terms + 1);
    for (let i = 0; i < factTerms.length; i++) {
      counts[(factTerms[i] as number) + 1]! += 1;
      if ((i + 1) % (SEAL_SLICE * 16) === 0) yield;
    }
    for (let t = 0; t < terms; t++) counts[t + 1]! += counts[t] as number;
    const postingStart = counts.slice();
    const postingFacts = new Uint32Array(factTerms.length);
    const postingTfs = adding.wideTfs ? new Uint32Array(factTerms.length) : new Uint16Array(factTerms.length);
    const next = counts; // reused as each term's fill cursor
    const { k1, b } = this.params;
    const avgdl = this.totalLength / size || 1;
    const lengths = adding.lengths.view();
    const lengthNorm = new Float64Array(size);
    const termBound = new Float64Array(terms);
    for (let doc = 0; doc < size; doc++) {
      const norm = k1 * (1 - b + (b * (lengths[doc] as number)) / avgdl);
      lengthNorm[doc] = norm;
      for (let i = factStart[doc] as number; i < (factStart[doc + 1] as number); i++) {
        const term = factTerms[i] as number;
        const tf = factTfs[i] as number;
        const at = next[term]!++;
        postingFacts[at] = doc;
        postingTfs[at] = tf;
        const weight = (tf * (k1 + 1)) / (tf + norm);
        if (weight > (termBound[term] as number)) termBound[term] = weight;
      }
      if ((doc + 1) % SEAL_SLICE === 0) yield;
    }
    this.keys = adding.keys.trimmed();
    this.positions = new KeyPositions(this.keys);
    this.factTerms = factTerms;
    this.factStart = factStart;
    this.postingStart = postingStart;
    this.postingFacts = postingFacts;
    this.postingTfs = postingTfs;
    this.lengthNorm = lengthNorm;
    this.termBound = termBound;
    this.building = null;
    this.wordIds.clear();
    this.tf = new Uint32Array(0);
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

interface FactsBeingAdded {
  readonly terms: GrowableArray<Uint32Array>;
  tfs: GrowableArray<Uint16Array | Uint32Array>;
  wideTfs: boolean;
  readonly starts: GrowableArray<Uint32Array>;
  readonly lengths: GrowableArray<Uint32Array>;
  readonly keys: GrowableArray<Float64Array>;
}

function newFactsBeingAdded(): FactsBeingAdded {
  return {
    terms: new GrowableArray((n) => new Uint32Array(n)),
    tfs: new GrowableArray<Uint16Array | Uint32Array>((n) => new Uint16Array(n)),
    wideTfs: false,
    starts: new GrowableArray((n) => new Uint32Array(n)),
    lengths: new GrowableArray((n) => new Uint32Array(n)),
    keys: new GrowableArray((n) => new Float64Array(n)),
  };
}
