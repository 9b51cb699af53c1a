import type { Vocabulary } from './types.js';

/** Each question term's weight: its IDF in the KB (rare terms, the specific thing asked about, weigh most). */
export function termWeights(terms: readonly string[], vocabulary: Vocabulary): Map<string, number> {
  return new Map(terms.map((term) => [term, vocabulary.idf(term)]));
}

/** IDF-weighted share of the question's terms that a set of terms (a fact's, a passage's) holds, in [0, 1]. */
export function coverage(terms: readonly string[], weights: ReadonlyMap<string, number>, held: ReadonlySet<string>): number {
  let total = 0;
  let covered = 0;
  for (const term of terms) {
    const weight = weights.get(term) ?? 0;
    total += weight;
    if (held.has(term)) covered += weight;
  }
  return total > 0 ? covered / total : 0;
}
