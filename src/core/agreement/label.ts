/**
 * A rating. Strings are nominal categories; numbers may be treated as nominal,
 * ordinal or interval depending on the statistic. `1` and `'1'` are different labels.
 */
export type Label = string | number;

/** A rating that may be absent (the rater skipped the item). */
export type MaybeLabel = Label | null | undefined;

/** True when a rating is present. */
export function isPresent(label: MaybeLabel): label is Label {
  return label !== null && label !== undefined;
}

/**
 * The distinct present labels across the given lists, in a stable order:
 * numbers ascending, then strings in code-unit order. Ordinal statistics use
 * this order when no explicit category order is given.
 */
export function collectCategories(...lists: readonly (readonly MaybeLabel[])[]): Label[] {
  const seen = new Set<Label>();
  for (const list of lists) {
    for (const label of list) if (isPresent(label)) seen.add(label);
  }
  return [...seen].sort(compareLabels);
}

function compareLabels(x: Label, y: Label): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  if (typeof x === 'number') return -1;
  if (typeof y === 'number') return 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Position of each category; throws when a category is listed twice. */
export function indexCategories(categories: readonly Label[]): Map<Label, number> {
  const index = new Map<Label, number>();
  categories.forEach((category, i) => {
    if (index.has(category)) throw new RangeError(`duplicate category: ${String(category)}`);
    index.set(category, i);
  });
  return index;
}

/** Position of a label among the categories; throws for a label outside them. */
export function categoryPosition(index: ReadonlyMap<Label, number>, label: Label): number {
  const position = index.get(label);
  if (position === undefined) throw new RangeError(`label not among categories: ${JSON.stringify(label)}`);
  return position;
}

/** Throws unless two paired rating lists have the same length. */
export function assertSameLength(a: readonly unknown[], b: readonly unknown[]): void {
  if (a.length !== b.length) {
    throw new RangeError(`paired ratings differ in length: ${a.length} vs ${b.length}`);
  }
}
