import { contradictedQualifier } from '../text/closed-classes.js';
import { isCoverageQuestion } from '../text/question-kind.js';
import { numberFit, type AnswerBearing } from './answer-bearing.js';
import { excludedItem, exclusionContext } from './exclusion.js';
import { leadOf, questionFigures } from './focus-layer.js';
import type { GateInput, TierCode } from './types.js';

/** One reason an answer is not `high`: a stable code and, in plain words, what may be off (the caveat names it). */
export interface TierCap {
  readonly code: TierCode;
  readonly detail: string;
}

/** A runner-up scoring this much more than the lead (by retrieval score) makes the lead doubtful. */
export const LEAD_SCORE_SHARE = 0.8;

/**
 * What keeps an answer that passed the gate from `high` (a promise a person can act on), each a
 * signal that carries to any KB, never a question to special-case, and each kept only because, on the training
 * sets (PolicyBench CPF and ICA, SQuAD 2.0), the answers it flags are right clearly less often than the rest:
 * - a number the question names is neither in the leading fact nor inside a range it states;
 * - a better-scored retrieved fact comes from an exclusion or a negative passage (the answer may be "no"), or
 *   the exclusion that answers a coverage question makes an exception ("except after an accident");
 * - the lead scores well below the best retrieved fact;
 * - the lead replaces a qualifier of the question with another of its kind (Sundays → Saturdays, second → first);
 * - the lead is a lead-in line ("These include:") without its content.
 * The score band (below the model's confident band) is the gate's own cap; see gate.ts. A word the KB never
 * mentions, or a specific word the lead lacks, flagged right answers about as often as wrong ones there: they
 * name what to check in a caveat (doubtsAbout) but do not cap the tier.
 */
export function tierCaps(input: GateInput): TierCap[] {
  const lead = leadOf(input);
  if (!lead) return [];
  return [...numberCaps(input, lead), ...evidenceCaps(input, lead)];
}

function numberCaps(input: GateInput, lead: AnswerBearing): TierCap[] {
  const figures = questionFigures(input.question);
  if (figures.length === 0 || numberFit(new Set(figures.map(String)), lead.fact.text) > 0) return [];
  return [{ code: 'number_unmatched', detail: `the closest fact does not state ${figures.slice(0, 2).join(', ')} or a range holding it` }];
}

function evidenceCaps(input: GateInput, lead: AnswerBearing): TierCap[] {
  const caps: TierCap[] = [];
  const best = Math.max(...input.ranked.map((f) => f.score));
  const excluding = input.ranked.find((f) => f !== lead.fact && f.score >= lead.fact.score && exclusionContext(f) !== null);
  const leadExcludes = exclusionContext(lead.fact);
  const excluded = isCoverageQuestion(input.question.text) ? excludedItem(lead.fact, input.question.terms) : null;
  if (excluded?.exception)
    caps.push({ code: 'exclusion_exception', detail: `the closest fact is under "${excluded.context}" but makes an exception` });
  if (excluding && leadExcludes === null)
    caps.push({ code: 'exclusion_outranks', detail: `a closer fact is listed under "${exclusionContext(excluding)}"` });
  if (lead.fact.score < best * LEAD_SCORE_SHARE)
    caps.push({ code: 'lead_not_best', detail: 'a better-matching fact does not lead the answer' });
  const contradicted = contradictedQualifier(input.question.text, lead.fact.text);
  if (contradicted)
    caps.push({
      code: 'qualifier_contradicted',
      detail: `the question asks about "${contradicted.asked}", the closest fact about "${contradicted.stated}"`,
    });
  if (isLeadIn(lead.fact.text))
    caps.push({ code: 'lead_in_line', detail: 'the closest fact introduces a list or a link it does not hold' });
  return caps;
}

/**
 * A line that introduces content it does not hold: it ends in a colon ("These include:", "as follows:"). A line
 * that points elsewhere ("visit the MOH website for the list") is an answer in its own right: FAQ answers often are.
 */
export function isLeadIn(text: string): boolean {
  return /:$/.test(text.trim());
}
