import type { EvidenceFact } from './types.js';

/**
 * The best-scored fact of each passage, best first. Facts of one section share
 * its heading, so they tie on the heading's terms; they are one candidate
 * answer, not rivals. The passage key never comes from the free-text source label.
 */
export function bestPerPassage(ranked: readonly EvidenceFact[]): EvidenceFact[] {
  const seen = new Set<string>();
  return ranked.filter((fact) => !seen.has(fact.passage) && (seen.add(fact.passage), true));
}

/**
 * How far the best passage stands out from the next ones: (s1 − mean(s2..s5)) / s1
 * over each passage's best score. Several passages matching equally means the KB
 * holds the topic but not a specific answer: the shape of a question whose fact is missing.
 */
export function passageMargin(ranked: readonly EvidenceFact[], window = 4): number {
  const passages = bestPerPassage(ranked);
  const top = passages[0]?.score ?? 0;
  if (top <= 0) return 0;
  let rest = 0;
  for (let i = 1; i <= window; i++) rest += passages[i]?.score ?? 0;
  return (top - rest / window) / top;
}
