import { rangeFit } from '../text/number-ranges.js';

/** What promotion reads of a fact: its text and the passage (a table, a section) it belongs to. */
export interface RangeCandidate {
  readonly text: string;
  readonly passage: string;
}

/** Rows brought into the results at most: one table seldom has two rows holding the same figure. */
const MAX_PROMOTED = 2;

/**
 * A question naming a figure ("premium at age 63") is answered by the row whose range holds it ("61 – 65"),
 * which BM25 scores no higher than its neighbours ("1 – 20"): the figure is not a word of that row. Among
 * the over-fetched hits (`pool`), rows whose stated range holds a figure of the question take the last
 * places of the top `k` (rows of a passage the top `k` already holds first, then the best-scored others). Nothing changes
 * when the question names no figure or the top `k` already holds such a row.
 */
export function promoteRangeRows<T extends RangeCandidate>(
  top: readonly T[],
  pool: readonly T[],
  figures: readonly number[],
  k: number,
): T[] {
  const kept = top.slice(0, k);
  if (figures.length === 0 || kept.some((fact) => rangeFit(figures, fact.text) === 'holds')) return kept;
  const passages = new Set(kept.map((fact) => fact.passage));
  const holding = pool.filter((fact) => !kept.includes(fact) && rangeFit(figures, fact.text) === 'holds');
  // Rows of a table already in the results first; then rows of another passage the question's words found.
  const promoted = [...holding.filter((f) => passages.has(f.passage)), ...holding.filter((f) => !passages.has(f.passage))].slice(
    0,
    MAX_PROMOTED,
  );
  if (promoted.length === 0) return kept;
  return [...kept.slice(0, Math.max(1, k - promoted.length)), ...promoted];
}
