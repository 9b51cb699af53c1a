/**
 * Where each key sits in a list of keys (store ids, in the order facts were added): a binary search when the
 * keys ascend, as they do when facts are read in id order, so no map per fact is kept; a map otherwise.
 */
export class KeyPositions {
  private readonly byKey: Map<number, number> | null;

  constructor(private readonly keys: ArrayLike<number>) {
    let ascending = true;
    for (let i = 1; i < keys.length && ascending; i++) ascending = (keys[i] as number) > (keys[i - 1] as number);
    this.byKey = ascending ? null : new Map(Array.from(keys, (key, position) => [key, position]));
  }

  /** The position of `key`, or -1. */
  of(key: number): number {
    if (this.byKey) return this.byKey.get(key) ?? -1;
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.keys[mid] as number;
      if (at === key) return mid;
      if (at < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
