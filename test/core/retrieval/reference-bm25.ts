import type { Bm25Hit, IndexableFact } from '../../../src/core/retrieval/bm25-index.js';
import { contentTerms, tokenize } from '../../../src/core/text/tokenize.js';

const DEFAULT_PARAMS = { k1: 1.2, b: 0.75 };

/**
 * The oracle: the plain term-at-a-time BM25 index (Map postings, a score per fact) that the compact MaxScore
 * index replaced, kept to show that the new one gives the same hits, scores and order.
 */
export class ReferenceBm25 {
  private readonly keys: number[] = [];
  private readonly lengths: number[] = [];
  private readonly termSets: Set<string>[] = [];
  private readonly postings = new Map<string, { docs: number[]; tfs: number[] }>();
  private readonly positionByKey = new Map<number, number>();
  private totalLength = 0;

  constructor(
    facts: Iterable<IndexableFact>,
    private readonly params = DEFAULT_PARAMS,
  ) {
    for (const fact of facts) this.add(fact);
  }

  get size(): number {
    return this.keys.length;
  }

  private add(fact: IndexableFact): void {
    const doc = this.keys.length;
    const own = tokenize(fact.text).map((t) => t.term);
    const counts = new Map<string, number>();
    for (const term of own) counts.set(term, (counts.get(term) ?? 0) + 1);
    // Context (the heading path) says what the fact is about: each of its terms counts once, and not
    // again where the fact states it, so a heading that repeats the text does not double its weight.
    const context = fact.context
      ? tokenize(fact.context)
          .map((t) => t.term)
          .filter((term) => !counts.has(term))
      : [];
    for (const term of context) counts.set(term, 1);
    const terms = [...own, ...new Set(context)];
    for (const tag of fact.tags ?? []) counts.set(tag, 1);
    for (const [term, tf] of counts) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = { docs: [], tfs: [] }));
      posting.docs.push(doc);
      posting.tfs.push(tf);
    }
    this.keys.push(fact.key);
    this.lengths.push(terms.length);
    this.termSets.push(new Set(counts.keys()));
    this.positionByKey.set(fact.key, doc);
    this.totalLength += terms.length;
  }

  /** Terms of the fact stored under `key` (empty when unknown). */
  termsOf(key: number): ReadonlySet<string> {
    const doc = this.positionByKey.get(key);
    return doc === undefined ? new Set() : (this.termSets[doc] ?? new Set());
  }

  /** Number of facts holding `term`, not counting excluded ones. */
  df(term: string, exclude: ReadonlySet<number> = EMPTY): number {
    let df = this.postings.get(term)?.docs.length ?? 0;
    for (const key of exclude) if (this.termsOf(key).has(term)) df -= 1;
    return df;
  }

  /** BM25 inverse document frequency, always positive. */
  idf(term: string, exclude: ReadonlySet<number> = EMPTY): number {
    const n = this.size - countPresent(this.positionByKey, exclude);
    const df = this.df(term, exclude);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Top-k facts for a question; ties broken by insertion order. */
  search(question: string, k: number, exclude: ReadonlySet<number> = EMPTY): Bm25Hit[] {
    const terms = contentTerms(question);
    if (terms.length === 0 || this.size === 0) return [];
    const { k1, b } = this.params;
    const avgdl = this.totalLength / this.size || 1;
    const scores = new Float64Array(this.size);
    const touched: number[] = [];
    let ideal = 0;
    for (const term of terms) {
      const idf = this.idf(term, exclude);
      ideal += idf;
      const posting = this.postings.get(term);
      if (!posting) continue;
      const { docs, tfs } = posting;
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i] as number;
        const tf = tfs[i] as number;
        const norm = tf + k1 * (1 - b + (b * (this.lengths[doc] as number)) / avgdl);
        if (scores[doc] === 0) touched.push(doc);
        scores[doc] = (scores[doc] as number) + (idf * tf * (k1 + 1)) / norm;
      }
    }
    for (const key of exclude) {
      const doc = this.positionByKey.get(key);
      if (doc !== undefined) scores[doc] = 0;
    }
    return topK(touched, scores, k).map((doc) => {
      const raw = scores[doc] as number;
      return { key: this.keys[doc] as number, raw, normalised: ideal > 0 ? Math.min(1, raw / ideal) : 0 };
    });
  }
}

/** Indexes of the k highest positive scores, best first, without sorting everything. */
function topK(candidates: number[], scores: Float64Array, k: number): number[] {
  const best: number[] = [];
  for (const doc of candidates) {
    const score = scores[doc] as number;
    if (score <= 0) continue;
    if (best.length === k && score <= (scores[best[k - 1] as number] as number)) continue;
    let i = best.length === k ? k - 1 : best.length;
    while (i > 0 && (scores[best[i - 1] as number] as number) < score) {
      best[i] = best[i - 1] as number;
      i -= 1;
    }
    best[i] = doc;
    if (best.length > k) best.length = k;
  }
  return best;
}

const EMPTY: ReadonlySet<number> = new Set();

function countPresent(positions: Map<number, number>, keys: ReadonlySet<number>): number {
  let n = 0;
  for (const key of keys) if (positions.has(key)) n += 1;
  return n;
}
