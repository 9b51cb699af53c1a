import { rankAnswerBearing } from './answer-bearing.js';
import { coverage, termWeights } from './coverage.js';
import type { EvidenceFact, QuestionAnalysis, Vocabulary } from './types.js';

export interface CitationPolicy {
  /** Facts an answer cites at most. */
  readonly max: number;
  /** A runner-up must score at least this share of the best fact. */
  readonly minShareOfTop: number;
  /** …and, outside the lead fact's passage, cover at least this share of what the lead covers. @default 0.8 */
  readonly minCoverageOfTop?: number;
}

/**
 * The facts an answer cites: the one that states what was asked (see
 * answer-bearing.ts) leads, then runners-up that support it — from the same
 * passage, or covering the question about as well — never facts that merely
 * share a word with it from an unrelated topic, and never headings or labels.
 */
export function selectCitations(
  ranked: readonly EvidenceFact[],
  question: QuestionAnalysis,
  vocabulary: Vocabulary,
  policy: CitationPolicy,
): EvidenceFact[] {
  const top = ranked[0];
  if (!top) return [];
  const weights = termWeights(question.terms, vocabulary);
  const covers = (fact: EvidenceFact) => coverage(question.terms, weights, fact.terms);
  const needed = covers(top) * (policy.minCoverageOfTop ?? 0.8);
  const strong = (fact: EvidenceFact) => fact.score >= top.score * policy.minShareOfTop;
  const supporting = ranked.filter((fact) => fact === top || (strong(fact) && (fact.passage === top.passage || covers(fact) >= needed)));
  // Lead and runners-up in answer-bearing order: the fact that states the answer first, then those that come closest.
  const order = rankAnswerBearing(ranked, question, weights).map((c) => c.fact);
  const lead = order[0]!;
  const rest = supporting.filter((fact) => fact !== lead).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return [lead, ...rest].slice(0, policy.max);
}
