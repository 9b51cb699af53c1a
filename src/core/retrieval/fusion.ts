/** A key's place after fusing several rankings. */
export interface FusedHit {
  readonly key: number;
  /** Σ 1 / (k + rank) over the rankings that hold the key (rank from 1). */
  readonly score: number;
}

/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): each
 * ranking contributes 1/(k + rank) for each key; k = 60 as in the paper. Ties
 * keep the order of the first ranking that holds the key.
 */
export function reciprocalRankFusion(rankings: readonly (readonly number[])[], k = 60): FusedHit[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((key, i) => scores.set(key, (scores.get(key) ?? 0) + 1 / (k + i + 1)));
  }
  return [...scores].map(([key, score]) => ({ key, score })).sort((a, b) => b.score - a.score);
}

/** The k facts most similar to `query` by cosine (vectors are unit length, so a dot product). */
export function topByCosine(
  vectors: ReadonlyMap<number, Float32Array>,
  query: Float32Array,
  k: number,
  exclude: ReadonlySet<number> = new Set(),
): { key: number; cosine: number }[] {
  const best: { key: number; cosine: number }[] = [];
  for (const [key, v] of vectors) {
    if (exclude.has(key) || v.length !== query.length) continue;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += (v[i] as number) * (query[i] as number);
    if (best.length < k || dot > (best[best.length - 1] as { cosine: number }).cosine) {
      best.push({ key, cosine: dot });
      best.sort((a, b) => b.cosine - a.cosine);
      if (best.length > k) best.pop();
    }
  }
  return best;
}
