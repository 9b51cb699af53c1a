import type { GateLayer, Verdict } from './types.js';

const pass = (layer: string, detail: string, score?: number, threshold?: number): Verdict => ({
  layer,
  pass: true,
  code: null,
  detail,
  ...(score === undefined ? {} : { score, threshold }),
});

/**
 * Refuses questions about identifiers (ADR-0050, Form 12B, section 3.2) that
 * appear nowhere in the knowledge base: a crisp rule, not a graded signal.
 */
export const identifierLayer: GateLayer = ({ question, vocabulary, settings }) => {
  if (!settings.checkEntities) return pass('entity', 'identifier check disabled');
  const unknown = question.identifiers.filter((id) => !vocabulary.has(`#${id}`)).map((id) => question.identifierText?.[id] ?? id);
  if (unknown.length === 0) return pass('entity', 'every identifier in the question is known');
  return {
    layer: 'entity',
    pass: false,
    code: 'unknown_entity',
    detail: `the knowledge base never mentions ${unknown.map((u) => `"${u}"`).join(', ')}`,
  };
};

/** Refuses when retrieval found nothing at all. */
export const evidenceLayer: GateLayer = ({ ranked }) =>
  ranked.length > 0
    ? pass('evidence', `${ranked.length} facts retrieved`)
    : { layer: 'evidence', pass: false, code: 'no_evidence', detail: 'nothing in the knowledge base matches the question' };

/**
 * With embeddings and the cosine signal chosen: the best fact's cosine ×
 * confidence must reach its own α (L2R hard refusal on the vector signal).
 */
export const cosineLayer: GateLayer = ({ ranked, settings }) => {
  const top = Math.max(0, ...ranked.map((fact) => (fact.cosine ?? 0) * fact.confidence));
  const threshold = settings.minCosine ?? 0.5;
  if (!ranked.some((fact) => fact.cosine !== undefined)) return pass('relevance', 'no question embedding for this ask (cosine)');
  if (top >= threshold) return pass('relevance', 'the best match is close enough (cosine)', round(top), threshold);
  return {
    layer: 'relevance',
    pass: false,
    code: 'low_relevance',
    detail: 'the closest facts are too far from the question (cosine)',
    score: round(top),
    threshold,
  };
};

export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
