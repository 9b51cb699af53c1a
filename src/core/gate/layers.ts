import { expectedValueIn } from './expected-value.js';
import type { EvidenceFact, GateInput, GateLayer, Verdict } from './types.js';

const pass = (layer: string, detail: string, score?: number, threshold?: number): Verdict => ({
  layer,
  pass: true,
  code: null,
  detail,
  ...(score === undefined ? {} : { score, threshold }),
});

/** Refuses when retrieval found nothing at all. */
export const noEvidenceLayer: GateLayer = ({ evidence }) =>
  evidence.length > 0
    ? pass('evidence', `${evidence.length} facts retrieved`)
    : { layer: 'evidence', pass: false, code: 'no_evidence', detail: 'nothing in the knowledge base matches the question' };

/**
 * L2R hard refusal: the best fact's similarity × confidence must reach α.
 * With embeddings and the cosine signal chosen, the similarity is the cosine
 * to the question's embedding, against its own α.
 */
export const relevanceLayer: GateLayer = ({ evidence, thresholds }) => {
  const useCosine = thresholds.relevanceSignal === 'cosine' && evidence.some((fact) => fact.cosine !== undefined);
  const top = Math.max(0, ...evidence.map((fact) => (useCosine ? (fact.cosine ?? 0) * fact.confidence : fact.score)));
  const threshold = useCosine ? (thresholds.minCosine ?? 0.5) : thresholds.minRelevance;
  const signal = useCosine ? ' (cosine)' : '';
  if (top >= threshold) return pass('relevance', `the best match is close enough${signal}`, round(top), threshold);
  return {
    layer: 'relevance',
    pass: false,
    code: 'low_relevance',
    detail: `the closest facts match too little of the question${signal}`,
    score: round(top),
    threshold,
  };
};

/** Refuses questions about identifiers or names that appear nowhere in the knowledge base. */
export const entityLayer: GateLayer = ({ question, vocabulary, thresholds }) => {
  if (!thresholds.checkEntities) return pass('entity', 'entity check disabled');
  const unknownIds = question.identifiers.filter((id) => !vocabulary.has(`#${id}`)).map((id) => question.identifierText?.[id] ?? id);
  const unknownNames = question.names.filter((alternatives) => !alternatives.some((term) => vocabulary.has(term))).map((a) => a.join('/'));
  const unknown = [...unknownIds, ...unknownNames];
  if (unknown.length === 0) return pass('entity', 'every identifier and name in the question is known');
  return {
    layer: 'entity',
    pass: false,
    code: 'unknown_entity',
    detail: `the knowledge base never mentions ${unknown.map((u) => `"${u}"`).join(', ')}`,
  };
};

/**
 * IDF-weighted share of the question's terms found in the cited evidence: rare
 * terms (the specific thing asked about) weigh most.
 */
export function coverage(input: Pick<GateInput, 'question' | 'vocabulary'>, cited: readonly EvidenceFact[]): number {
  let total = 0;
  let covered = 0;
  for (const term of input.question.terms) {
    const weight = input.vocabulary.idf(term);
    total += weight;
    if (cited.some((fact) => fact.terms.has(term))) covered += weight;
  }
  return total > 0 ? covered / total : 0;
}

export const coverageLayer: GateLayer = (input) => {
  // The best fact alone must cover the question: facts are atomic, so an answer
  // stitched from the fragments of several facts is a guess.
  const score = coverage(input, input.evidence.slice(0, 1));
  const threshold = input.thresholds.minCoverage;
  if (score >= threshold) return pass('coverage', 'the evidence covers the question', round(score), threshold);
  const top = input.evidence[0];
  const missing = input.question.terms.filter((term) => !top?.terms.has(term));
  return {
    layer: 'coverage',
    pass: false,
    code: 'low_coverage',
    detail: `the evidence does not mention ${missing
      .slice(0, 5)
      .map((t) => `"${t}"`)
      .join(', ')}`,
    score: round(score),
    threshold,
  };
};

/**
 * How far the best fact stands out from the runners-up: (s1 − mean(s2..s5)) / s1.
 * When several facts match about equally, the KB holds the topic but not a
 * specific answer — the typical shape of a question whose fact is missing.
 */
export function margin(ranked: readonly EvidenceFact[], window = 4): number {
  const top = ranked[0]?.score ?? 0;
  if (top <= 0) return 0;
  let rest = 0;
  for (let i = 1; i <= window; i++) rest += ranked[i]?.score ?? 0;
  return (top - rest / window) / top;
}

/**
 * The best-scored fact of each passage (same source locator: document and
 * section), best first. Facts of one section share its heading, so they tie on
 * the heading's terms; they are one candidate answer, not rivals.
 */
export function bestPerPassage(ranked: readonly EvidenceFact[]): EvidenceFact[] {
  const seen = new Set<string>();
  return ranked.filter((fact) => !seen.has(fact.source) && (seen.add(fact.source), true));
}

export const marginLayer: GateLayer = ({ ranked, thresholds }) => {
  const score = margin(bestPerPassage(ranked));
  const threshold = thresholds.minMargin;
  if (score >= threshold) return pass('margin', 'the best match stands out', round(score), threshold);
  return {
    layer: 'margin',
    pass: false,
    code: 'low_margin',
    detail: 'several facts match about equally and none stands out as the answer',
    score: round(score),
    threshold,
  };
};

/** A how-much / how-many / when / who question needs evidence holding such a value. */
export const answerTypeLayer: GateLayer = ({ question, evidence, thresholds }) => {
  const expects = question.expects;
  if (!thresholds.checkAnswerType || expects === null) return pass('answer_type', 'no particular kind of answer expected');
  if (evidence.some((fact) => expectedValueIn(expects, fact.text))) {
    return pass('answer_type', `the evidence holds a ${expects}`);
  }
  return {
    layer: 'answer_type',
    pass: false,
    code: 'answer_type_mismatch',
    detail: `the question asks for a ${expects} and the evidence holds none`,
  };
};

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
