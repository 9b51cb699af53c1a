import { isPresent, type Label, type MaybeLabel } from './label.js';

/** Chooses among labels tied for most votes (given in first-seen order); null leaves the item without a majority. */
export type TieBreak = (tied: readonly Label[]) => Label | null;

/**
 * The most frequent present label, e.g. the human consensus for one item.
 * Missing labels are ignored. Returns null when there are no labels, or when
 * two or more labels tie for the most votes and no `tieBreak` is given.
 * This is a plurality, not a strict (>50%) majority.
 */
export function majorityLabel(labels: readonly MaybeLabel[], tieBreak?: TieBreak): Label | null {
  const votes = new Map<Label, number>();
  for (const label of labels) {
    if (isPresent(label)) votes.set(label, (votes.get(label) ?? 0) + 1);
  }
  let best = 0;
  for (const count of votes.values()) best = Math.max(best, count);
  const tied = [...votes].filter(([, count]) => count === best).map(([label]) => label);
  if (tied.length === 0) return null;
  if (tied.length === 1) return tied[0]!;
  return tieBreak ? tieBreak(tied) : null;
}
