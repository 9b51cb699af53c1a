import { formatCaveat, formatExtractiveAnswer, formatQuotedCaveat, usedFacts } from '../core/answer/format-answer.js';
import type { Verdict } from '../core/gate/types.js';
import { ATTR, SPAN } from '../telemetry/attributes.js';
import { withSpanSync } from '../telemetry/with-span.js';
import type { Assessment } from './assess-question.js';
import { evidenceView } from './decision-parts.js';
import type { Answered, Decided } from './decision.js';

/**
 * The extractive answer of a question the gate let through: the fact that states what was asked (and at most two
 * of its passage that add to it), with exactly those facts as its sources and the ones ranked beside them as
 * related reading. The gate's confidence and caveat. Null when there is nothing to quote.
 */
export function extractiveAnswer(
  assessed: Assessment,
  kb: Decided['kb'],
  answerability: Answered['answerability'],
  mode?: 'quoted_fallback',
): Answered | null {
  const { gate } = assessed;
  // The reply's sources are the facts it states, not every fact retrieval ranked near them.
  const candidates = assessed.cited();
  const cited = usedFacts(candidates, assessed.input.question);
  if (cited.length === 0) return null;
  const related = candidates.filter((fact) => !cited.includes(fact));
  const answer = withSpanSync(SPAN.answer, mode ? { [ATTR.answerMode]: mode } : {}, () =>
    formatExtractiveAnswer(cited, assessed.input.question),
  );
  return {
    decision: 'answer',
    answer,
    reasons: gate.verdicts,
    evidence: cited.map(evidenceView),
    ...(related.length > 0 ? { related: related.map(evidenceView) } : {}),
    nearbyTopics: [],
    refusal: null,
    kb,
    ...(answerability ? { answerability } : {}),
    confidence: gate.confidence,
    caveat: gate.confidence === 'medium' ? formatCaveat(gate.doubts) : null,
  };
}

/** The confidence verdict of the fallback: why the answer quotes rather than summarises (and is not `high`). */
export const DRAFT_WITHHELD: Verdict = {
  layer: 'confidence',
  pass: true,
  code: 'draft_withheld',
  detail: "the model's draft failed the check after generation, so the sources are quoted rather than summarised",
};

/**
 * With a model, a draft the grounding or entailment check withheld falls back to the extractive answer from the same
 * evidence (a model never makes Candor answer less than it does without one): `medium`, with a caveat saying the
 * sources are quoted. Its reasons keep the gate's verdicts, the model's and every check of the draft (the failing
 * one with its support score), then `draft_withheld`; the draft's text is kept nowhere. Null when the extractive
 * answer would itself refuse (nothing to quote): the refusal stands.
 */
export function quotedFallback(
  assessed: Assessment,
  withheld: { readonly verdicts: readonly Verdict[] },
  drafted: Decided,
): Answered | null {
  const quoted = extractiveAnswer(assessed, drafted.kb, drafted.answerability, 'quoted_fallback');
  if (!quoted) return null;
  const { gate } = assessed;
  const gateCaps = gate.verdicts.filter((v) => v.layer === 'confidence');
  const gateRest = gate.verdicts.filter((v) => v.layer !== 'confidence');
  return {
    ...quoted,
    reasons: [...gateRest, ...withheld.verdicts, ...gateCaps, DRAFT_WITHHELD],
    ...(drafted.generation ? { generation: drafted.generation } : {}),
    confidence: 'medium',
    caveat: formatQuotedCaveat(gate.doubts),
  };
}
