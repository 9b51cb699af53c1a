import { answerTypeLayer, coverageLayer, entityLayer, marginLayer, noEvidenceLayer, relevanceLayer } from './layers.js';
import type { EvidenceFact, GateInput, GateLayer, Verdict } from './types.js';

/** Layers in the order they decide: the first failing one is the reason given. */
export const HARD_LAYERS: readonly GateLayer[] = [
  // An unknown identifier is the most specific reason: "never mentions ADR-0050" beats "nothing matches".
  entityLayer,
  noEvidenceLayer,
  relevanceLayer,
  coverageLayer,
  marginLayer,
  answerTypeLayer,
];

/** Names of HARD_LAYERS in the same order (span names, docs). */
export const HARD_LAYER_NAMES = ['entity', 'evidence', 'relevance', 'coverage', 'margin', 'answer_type'] as const;

export interface GateResult {
  readonly pass: boolean;
  /** Every layer's verdict; on refusal the deciding one comes first. */
  readonly verdicts: readonly Verdict[];
}

/** Runs every hard layer (all of them, so a refusal can show each verdict). */
export function hardGate(input: GateInput, layers: readonly GateLayer[] = HARD_LAYERS): GateResult {
  return combineVerdicts(layers.map((layer) => layer(input)));
}

/** Passes only when every verdict passes; failed verdicts lead, in layer order. */
export function combineVerdicts(verdicts: readonly Verdict[]): GateResult {
  const failed = verdicts.filter((v) => !v.pass);
  return failed.length === 0 ? { pass: true, verdicts } : { pass: false, verdicts: [...failed, ...verdicts.filter((v) => v.pass)] };
}

/**
 * The facts an answer cites: the best one, then any of the next that score at
 * least `minShareOfTop` of it, up to `max`.
 */
export function selectCitations(ranked: readonly EvidenceFact[], max: number, minShareOfTop: number): EvidenceFact[] {
  const top = ranked[0];
  if (!top) return [];
  return [top, ...ranked.slice(1).filter((fact) => fact.score >= top.score * minShareOfTop)].slice(0, max);
}
