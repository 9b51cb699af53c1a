import { FEATURE_NAMES, type FeatureName } from '../../../src/core/gate/answerability-features.js';
import type { AnswerabilityModel } from '../../../src/core/gate/answerability-model.js';
import type { EvidenceFact, GateInput, GateSettings, Vocabulary } from '../../../src/core/gate/types.js';
import { analyseQuestion } from '../../../src/core/text/analyse-question.js';
import { contentTerms } from '../../../src/core/text/tokenize.js';

export const SETTINGS: GateSettings = { minAnswerability: 0.5, checkEntities: true, checkAnswerType: true };

/** A fact in its own passage unless one is given. */
export function fact(text: string, score: number, id = 1, passage = `doc#${id}`): EvidenceFact {
  return {
    factId: id,
    externalId: null,
    text,
    source: `doc#${id}`,
    heading: null,
    passage,
    confidence: 1,
    similarity: score,
    score,
    terms: new Set(contentTerms(text)),
  };
}

/** A vocabulary over some texts, with every term equally rare unless weights say otherwise. */
export function vocabulary(texts: string[], weights: Record<string, number> = {}): Vocabulary {
  const terms = new Set(texts.flatMap((t) => contentTerms(t)));
  return { has: (term) => terms.has(term), idf: (term) => weights[term] ?? 1, unseenIdf: () => Math.max(2, ...Object.values(weights)) };
}

export function input(question: string, ranked: EvidenceFact[], kbTexts: string[], overrides: Partial<GateInput> = {}): GateInput {
  return { question: analyseQuestion(question), ranked, vocabulary: vocabulary(kbTexts), settings: SETTINGS, ...overrides };
}

/**
 * A hand-made model for exact tests: log-odds = Σ weights[name] × value + intercept
 * (centre 0, scale 1), so a test can compute the score itself.
 */
export function handModel(weights: Partial<Record<FeatureName, number>>, intercept = 0, threshold = 0.5): AnswerabilityModel {
  return {
    id: 'hand',
    version: 1,
    features: [...FEATURE_NAMES],
    center: FEATURE_NAMES.map(() => 0),
    scale: FEATURE_NAMES.map(() => 1),
    weights: FEATURE_NAMES.map((name) => weights[name] ?? 0),
    intercept,
    threshold,
  };
}
