import { forEachWord, wordTerms } from '../text/tokenize.js';
import { GrowableArray } from './growable-array.js';
import { TermDictionary, type TermDictionaryArrays } from './term-dictionary.js';

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

/** Written words whose term ids are cached while facts are added (the cache starts over when full). */
const WORD_CACHE_SIZE = 200_000;

/** Postings are grouped (sealed) this many facts at a time between pauses (a few ms). */
const SEAL_SLICE = 5_000;

/**
 * A BM25 segment's typed arrays, as search reads them (typed arrays only: a worker hands them over without
 * copying, and a snapshot stores them as they are). Fact d's term ids are factTerms[factStart[d] ..
 * factStart[d + 1]); the postings of term t are postingFacts[postingStart[t] .. postingStart[t + 1]), fact
 * positions in insertion order.
 */
export interface Bm25Arrays {
  readonly terms: TermDictionaryArrays;
  readonly keys: Float64Array;
  readonly factTerms: Uint32Array;
  readonly factStart: Uint32Array;
  readonly postingStart: Uint32Array;
  readonly postingFacts: Uint32Array;
  readonly postingTfs: Uint16Array | Uint32Array;
  /** Per fact: its length in terms (the text's terms, and the context's not in the text). */
  readonly lengths: Uint32Array;
  /** The lengths summed. */
  readonly totalLength: number;
  /**
   * Per term: the highest tf · (k1 + 1) / (tf + k1 · (1 − b + b · length / boundAvgdl)) of its postings, the
   * term's bound (times idf) at this segment's own average length (see Bm25Segment.boundScale).
   */
  readonly termBound: Float64Array;
  readonly boundAvgdl: number;
}

/**
 * Building a Bm25Index: facts are added one at a time (each term interned once, each fact's distinct term ids
 * and frequencies appended to flat arrays), then sealed into postings.
 */
export class Bm25Builder {
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[] = [];
  /** While facts are added: each fact's distinct term ids (in first-seen order) and frequencies, lengths, keys. */
  private building: FactsBeingAdded | null = newFactsBeingAdded();
  private totalLength = 0;
  /** While adding: term ids per written word (most words recur), and one fact's term frequencies by id. */
  private readonly wordIds = new Map<string, readonly number[]>();
  private tf = new Uint32Array(1024);
  private readonly seen: number[] = [];

  add(fact: IndexableFact): void {
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
   * that a caller can pause. Facts stay in insertion order within each posting list. Returns the arrays search reads.
   */
  *seal(params: Bm25Params): Generator<void, Bm25Arrays> {
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
    const { k1, b } = params;
    const avgdl = this.totalLength / size || 1;
    const lengths = adding.lengths.trimmed();
    const termBound = new Float64Array(terms);
    for (let doc = 0; doc < size; doc++) {
      const norm = k1 * (1 - b + (b * (lengths[doc] as number)) / avgdl);
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
    this.building = null;
    this.wordIds.clear();
    this.tf = new Uint32Array(0);
    const { totalLength } = this;
    const keys = adding.keys.trimmed();
    return {
      terms: TermDictionary.of(this.termNames).arrays,
      keys,
      factTerms,
      factStart,
      postingStart,
      postingFacts,
      postingTfs,
      lengths,
      totalLength,
      termBound,
      boundAvgdl: avgdl,
    };
  }
}

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
