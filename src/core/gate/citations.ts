import { tokenize } from '../text/tokenize.js';
import { coverage, termWeights } from './coverage.js';
import type { EvidenceFact, QuestionAnalysis, Vocabulary } from './types.js';

export interface CitationPolicy {
  /** Facts an answer cites at most. */
  readonly max: number;
  /** A runner-up must score at least this share of the best fact. */
  readonly minShareOfTop: number;
  /** …and, outside the best fact's passage, cover at least this share of what the best fact covers. @default 0.8 */
  readonly minCoverageOfTop?: number;
}

/**
 * The facts an answer cites: the best one, then runners-up that support it —
 * from the same passage, or covering the question about as well — never facts
 * that merely share a word with it from an unrelated topic. Within the best
 * passage, the fact that states the question's terms itself (not through its
 * heading) is quoted first: a heading says what a section is about, not the answer.
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
  const statesItself = (fact: EvidenceFact) => coverage(question.terms, weights, new Set(tokenize(fact.text).map((t) => t.term)));
  let lead = top;
  for (const fact of supporting) if (fact.passage === top.passage && statesItself(fact) > statesItself(lead)) lead = fact;
  return [lead, ...supporting.filter((fact) => fact !== lead)].slice(0, policy.max);
}
