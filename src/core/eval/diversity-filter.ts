import { denseCosine, sparseCosine, tfidfVectors, trigramVectors } from './text-vectors.js';

export interface DiversityOptions {
  /** Drop a question whose TF-IDF cosine with a kept one is at least this. */
  readonly keywordThreshold: number;
  /** Drop a question whose embedding cosine with a kept one is at least this (with embeddings). */
  readonly semanticThreshold: number;
  /** The same with the lexical stand-in (character trigrams), used without embeddings. */
  readonly lexicalThreshold: number;
  /** Unit embeddings, one per question, when an embedding model is configured. */
  readonly embeddings?: readonly Float32Array[];
}

export interface Removed {
  readonly index: number;
  readonly by: 'keyword' | 'semantic';
  /** The kept question it is too close to. */
  readonly duplicateOf: number;
  readonly similarity: number;
}

export interface DiversityResult {
  /** Indices of the questions kept, in input order. */
  readonly kept: readonly number[];
  readonly removed: readonly Removed[];
  readonly semantic: 'embeddings' | 'lexical';
}

/**
 * KnowOrNot's diversity filtering: a keyword pass (TF-IDF similarity between
 * questions) and then a semantic pass (embeddings, or character trigrams
 * without them). Greedy in input order: a question is kept unless it is too
 * close to one already kept, so that no two kept questions ask the same thing
 * and removing one fact really removes the answer to its question.
 */
export function diversityFilter(questions: readonly string[], options: DiversityOptions): DiversityResult {
  const removed: Removed[] = [];
  const keyword = tfidfVectors(questions);
  const afterKeyword = greedy(
    questions.map((_, i) => i),
    (i, j) => sparseCosine(keyword[i]!, keyword[j]!),
    options.keywordThreshold,
    'keyword',
    removed,
  );
  const embeddings = options.embeddings;
  if (embeddings && embeddings.length !== questions.length) throw new RangeError('one embedding per question is needed');
  const lexical = embeddings ? null : trigramVectors(questions);
  const similarity = embeddings
    ? (i: number, j: number) => denseCosine(embeddings[i]!, embeddings[j]!)
    : (i: number, j: number) => sparseCosine(lexical![i]!, lexical![j]!);
  const kept = greedy(afterKeyword, similarity, embeddings ? options.semanticThreshold : options.lexicalThreshold, 'semantic', removed);
  return { kept, removed: removed.sort((a, b) => a.index - b.index), semantic: embeddings ? 'embeddings' : 'lexical' };
}

function greedy(
  candidates: readonly number[],
  similarity: (i: number, j: number) => number,
  threshold: number,
  by: Removed['by'],
  removed: Removed[],
): number[] {
  const kept: number[] = [];
  for (const i of candidates) {
    let nearest = -1;
    let best = -Infinity;
    for (const j of kept) {
      const s = similarity(i, j);
      if (s > best) [best, nearest] = [s, j];
    }
    if (nearest >= 0 && best >= threshold) removed.push({ index: i, by, duplicateOf: nearest, similarity: Math.round(best * 1000) / 1000 });
    else kept.push(i);
  }
  return kept;
}
