import { tokenize } from '../text/tokenize.js';

/** A sparse, unit-length vector: term → weight. */
export type SparseVector = ReadonlyMap<string, number>;

/**
 * TF-IDF vectors of short texts against each other (the keyword view of
 * KnowOrNot's diversity filter): stemmed content terms, sublinear term
 * frequency, smoothed IDF over these texts, L2-normalised.
 */
export function tfidfVectors(texts: readonly string[]): SparseVector[] {
  const termLists = texts.map((t) => tokenize(t).map((tok) => tok.term));
  const df = new Map<string, number>();
  for (const terms of termLists) for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
  const n = texts.length;
  return termLists.map((terms) => {
    const tf = new Map<string, number>();
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    const v = new Map<string, number>();
    for (const [term, count] of tf) v.set(term, (1 + Math.log(count)) * (Math.log((1 + n) / (1 + (df.get(term) ?? 0))) + 1));
    return normalise(v);
  });
}

/**
 * Character trigram vectors of the stemmed content words (a lexical stand-in
 * for meaning when no embedding model is configured): it sees "renewal" near
 * "renew" and ignores word order, so rephrasings of one question score high.
 */
export function trigramVectors(texts: readonly string[]): SparseVector[] {
  return texts.map((text) => {
    const v = new Map<string, number>();
    for (const { term } of tokenize(text)) {
      const padded = ` ${term} `;
      for (let i = 0; i + 3 <= padded.length; i++) {
        const gram = padded.slice(i, i + 3);
        v.set(gram, (v.get(gram) ?? 0) + 1);
      }
    }
    return normalise(v);
  });
}

/** Cosine similarity of two unit sparse vectors. */
export function sparseCosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, w] of small) dot += w * (large.get(term) ?? 0);
  return dot;
}

/** Cosine similarity of two unit dense vectors (embeddings). */
export function denseCosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

function normalise(v: Map<string, number>): Map<string, number> {
  let norm = 0;
  for (const w of v.values()) norm += w * w;
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [k, w] of v) v.set(k, w / norm);
  return v;
}
