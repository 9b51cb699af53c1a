import { tokenize } from '../text/tokenize.js';
import type { Bm25Hit } from './bm25-index.js';

/** How much more a section's opening fact (its topic sentence) weighs among the hits. */
const OPENER_WEIGHT = 0.25;

/** How much a fact stating the question's words in the question's order (adjacent pairs) gains over BM25 alone. */
const PHRASE_WEIGHT = 0.5;

/**
 * Term proximity and section openers, which BM25 ignores: among the hits, a fact that holds the question's words side by side
 * ("MediShield Life covers …" for "What does MediShield Life cover?") ranks above one that holds them
 * scattered. Each hit's raw score grows by PHRASE_WEIGHT × the share of the question's adjacent term pairs
 * the fact holds adjacent, and a section's opening fact by OPENER_WEIGHT; the normalised score (what
 * the gate reads) is unchanged. Returns the best `keep`.
 */
export function rerankByPhrase(
  question: string,
  hits: Bm25Hit[],
  keep: number,
  textOf: (key: number) => string,
  opens: (key: number) => boolean,
): Bm25Hit[] {
  const seq = tokenize(question).map((t) => t.term);
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < seq.length; i++) pairs.add(`${seq[i]} ${seq[i + 1]}`);
  // A hit whose raw score, boosted as much as any can be, stays below the keep-th raw score cannot make
  // the cut: only the others are tokenised (exact, and most of the pool at scale).
  const floor = (hits[keep - 1]?.raw ?? 0) / MAX_BOOST;
  const boosted = hits.map((hit, rank) => {
    if (hit.raw < floor) return { hit, rank, score: hit.raw };
    let held = 0;
    if (pairs.size > 0) {
      const terms = tokenize(textOf(hit.key)).map((t) => t.term);
      const seen = new Set<string>();
      for (let i = 0; i + 1 < terms.length; i++) {
        const pair = `${terms[i]} ${terms[i + 1]}`;
        if (pairs.has(pair) && !seen.has(pair)) {
          seen.add(pair);
          held += 1;
        }
      }
    }
    const phrase = pairs.size > 0 ? (PHRASE_WEIGHT * held) / pairs.size : 0;
    return { hit, rank, score: hit.raw * (1 + phrase) * (opens(hit.key) ? 1 + OPENER_WEIGHT : 1) };
  });
  return boosted
    .sort((a, b) => b.score - a.score || a.rank - b.rank)
    .slice(0, keep)
    .map((b) => b.hit);
}

const MAX_BOOST = (1 + PHRASE_WEIGHT) * (1 + OPENER_WEIGHT);
