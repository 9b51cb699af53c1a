import type { GateResult } from '../core/gate/gate.js';
import type { EvidenceFact } from '../core/gate/types.js';
import type { AnswerabilityView, EvidenceView, ThresholdSource } from './decision.js';

/** A cited fact as a decision shows it: its external id when it has one, its score rounded. */
export function evidenceView(fact: EvidenceFact): EvidenceView {
  return {
    factId: fact.externalId ?? String(fact.factId),
    text: fact.text,
    source: fact.source,
    score: round(fact.score),
    title: fact.title ?? null,
    section: fact.heading,
    url: fact.url ?? null,
  };
}

/** The gate's answerability as a decision carries it: every value rounded to three places. */
export function answerabilityView(gate: GateResult, thresholdSource: ThresholdSource): AnswerabilityView {
  const { score, threshold, model, features, contributions } = gate.answerability;
  const rounded = (values: Readonly<Record<string, number>>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, round(v)]));
  return { score: round(score), threshold, thresholdSource, model, features: rounded(features), contributions: rounded(contributions) };
}

/** Three decimal places: what decisions, traces and rows show. */
export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
