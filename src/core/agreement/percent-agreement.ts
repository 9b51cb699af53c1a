import { assertSameLength, isPresent, type MaybeLabel } from './label.js';

/**
 * Share of paired items (0..1) on which both raters gave the same label.
 * Pairs where either rating is missing are skipped; NaN when no pair remains.
 * Not chance-corrected: report it next to kappa or alpha, not instead of them.
 */
export function percentAgreement(a: readonly MaybeLabel[], b: readonly MaybeLabel[]): number {
  assertSameLength(a, b);
  let pairs = 0;
  let same = 0;
  a.forEach((x, i) => {
    const y = b[i];
    if (!isPresent(x) || !isPresent(y)) return;
    pairs += 1;
    if (x === y) same += 1;
  });
  return pairs === 0 ? NaN : same / pairs;
}
