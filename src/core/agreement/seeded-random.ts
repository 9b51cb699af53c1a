/** A source of uniform numbers in [0, 1), like Math.random. */
export type RandomSource = () => number;

/**
 * Mulberry32: a small, fast 32-bit PRNG. The same seed always yields the same
 * sequence, which makes bootstrap intervals reproducible. Not for cryptography.
 */
export function mulberry32(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform integer in [0, n) drawn from `random`. */
export function randomInt(random: RandomSource, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}
