/** A seeded pseudo-random source: the same seed gives the same sequence of requests. */
export interface Prng {
  /** In [0, 1). */
  next(): number;
  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  bytes(n: number): Buffer;
  /** `n` characters drawn from `alphabet`. */
  text(n: number, alphabet?: string): string;
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** mulberry32: tiny, fast and good enough to pick fuzz cases (not for secrets). */
export function createPrng(seed: number): Prng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (maxExclusive: number) => Math.floor(next() * maxExclusive);
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)] as T;
    },
    bytes: (n) => {
      const out = Buffer.allocUnsafe(n);
      for (let i = 0; i < n; i += 1) out[i] = int(256);
      return out;
    },
    text: (n, alphabet = ALNUM) => {
      let out = '';
      for (let i = 0; i < n; i += 1) out += alphabet[int(alphabet.length)];
      return out;
    },
  };
}

/** A numeric seed from any text (FNV-1a), so `--seed abc` works as well as `--seed 42`. */
export function seedFrom(text: string): number {
  if (/^\d+$/.test(text)) return Number(text) >>> 0;
  let hash = 0x811c9dc5;
  for (const ch of text) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
