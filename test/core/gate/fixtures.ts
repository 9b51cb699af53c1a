import type { EvidenceFact, GateInput, GateThresholds, Vocabulary } from '../../../src/core/gate/types.js';
import { analyseQuestion } from '../../../src/core/text/analyse-question.js';
import { contentTerms } from '../../../src/core/text/tokenize.js';

export const THRESHOLDS: GateThresholds = {
  minRelevance: 0.3,
  minCoverage: 0.45,
  minMargin: 0.2,
  checkEntities: true,
  checkAnswerType: true,
};

export function fact(text: string, score: number, id = 1): EvidenceFact {
  return {
    factId: id,
    externalId: null,
    text,
    source: `doc#${id}`,
    heading: null,
    confidence: 1,
    similarity: score,
    score,
    terms: new Set(contentTerms(text)),
  };
}

/** A vocabulary over some texts, with every term equally rare unless weights say otherwise. */
export function vocabulary(texts: string[], weights: Record<string, number> = {}): Vocabulary {
  const terms = new Set(texts.flatMap((t) => contentTerms(t)));
  return { has: (term) => terms.has(term), idf: (term) => weights[term] ?? 1 };
}

export function input(question: string, ranked: EvidenceFact[], kbTexts: string[], overrides: Partial<GateInput> = {}): GateInput {
  return {
    question: analyseQuestion(question),
    evidence: ranked.slice(0, 3),
    ranked,
    vocabulary: vocabulary(kbTexts),
    thresholds: THRESHOLDS,
    ...overrides,
  };
}
