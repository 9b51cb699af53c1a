import { and, eq, inArray, isNotNull } from 'drizzle-orm';

import type { Db } from '../store/open-store.js';
import { interactions, reviewSamples } from '../store/schema.js';
import { emitEvaluationResult, type AnnotatorType, type EvaluatedInteraction } from '../telemetry/evaluation-events.js';
import type { LabelChange } from './label-change.js';

/** Outcomes with a numeric reading (1 good, 0 bad); a 1–5 rating is its own number; `unsure` has none. */
const SCORES: Readonly<Record<string, number>> = { correct: 1, incorrect: 0, factual: 1, non_factual: 0 };

/**
 * The traced interaction of each sample (samples whose interaction has no
 * trace id, such as imported replies, are left out). Read in the label's
 * transaction, so that emitting afterwards cannot fail.
 */
export async function tracesOfSamples(db: Db, sampleIds: readonly number[]): Promise<Map<number, EvaluatedInteraction>> {
  const out = new Map<number, EvaluatedInteraction>();
  const ids = [...new Set(sampleIds)];
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select({ sampleId: reviewSamples.id, interactionId: interactions.id, traceId: interactions.traceId })
      .from(reviewSamples)
      .innerJoin(interactions, eq(interactions.id, reviewSamples.interactionId))
      .where(and(inArray(reviewSamples.id, ids.slice(i, i + 1000)), isNotNull(interactions.traceId)));
    for (const row of rows) out.set(row.sampleId, { interactionId: row.interactionId, traceId: row.traceId });
  }
  return out;
}

/** Emits each stored label (or removal) as a `gen_ai.evaluation.result` in its interaction's trace. */
export function emitLabelEvaluations(
  traces: ReadonlyMap<number, EvaluatedInteraction>,
  changes: readonly LabelChange[],
  action: 'set' | 'remove' = 'set',
): void {
  for (const change of changes) {
    const target = traces.get(change.sampleId);
    if (!target) continue;
    const score = SCORES[change.value] ?? (/^[1-5]$/.test(change.value) ? Number(change.value) : undefined);
    emitEvaluationResult(target, {
      name: change.task,
      scoreLabel: change.value,
      scoreValue: score,
      ...(action === 'remove' ? { explanation: 'label withdrawn by its annotator' } : { userText: change.explanation }),
      annotator: change.annotator,
      annotatorType: annotatorType(change.annotator),
      via: change.via,
      action,
    });
  }
}

function annotatorType(annotator: string): AnnotatorType {
  if (annotator.startsWith('llm:')) return 'llm_judge';
  if (annotator.startsWith('rule:')) return 'rule_judge';
  return 'human';
}
