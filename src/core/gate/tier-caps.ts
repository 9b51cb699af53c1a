import { isCoverageQuestion } from '../text/question-kind.js';
import { numberFit, type AnswerBearing } from './answer-bearing.js';
import { termWeights } from './coverage.js';
import { exclusionContext, hasException } from './exclusion.js';
import { FOCUS_SPECIFICITY, frameTerms, leadOf, questionFigures } from './focus-layer.js';
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
 * signal that carries to any KB, never a question to special-case:
 * - the question names a word the KB never mentions, or a specific word (the focus) the leading fact lacks;
 * - a number the question names is neither in the leading fact nor inside a range it states;
 * - a better-scored retrieved fact comes from an exclusion or a negative passage (the answer may be "no");
 * - the lead scores well below the best retrieved fact;
 * - the lead is a lead-in line ("These include:", "refer to the following website") without its content.
 * The score band (below the model's confident band) is the gate's own cap; see gate.ts.
 */
export function tierCaps(input: GateInput): TierCap[] {
  const lead = leadOf(input);
  if (!lead) return [];
  return [...termCaps(input, lead), ...numberCaps(input, lead), ...evidenceCaps(input, lead)];
}

function termCaps(input: GateInput, lead: AnswerBearing): TierCap[] {
  const { question, vocabulary } = input;
  const weights = termWeights(question.terms, vocabulary);
  const word = (t: string) => `"${question.wordOf?.[t] ?? t}"`;
  const byRarity = [...question.terms].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0));
  const frame = frameTerms(question.text);
  const caps: TierCap[] = [];
  const unknown = byRarity.filter((t) => !vocabulary.has(t) && !frame.has(t) && !/^\d/.test(t));
  if (unknown.length > 0)
    caps.push({ code: 'unknown_term', detail: `the knowledge base never mentions ${unknown.slice(0, 3).map(word).join(', ')}` });
  const specific = vocabulary.unseenIdf() * FOCUS_SPECIFICITY;
  const missing = byRarity.filter(
    // Figures are the number cap's to judge: "63" is answered by the row "61 – 65", which does not state it.
    (t) => vocabulary.has(t) && !frame.has(t) && !/^\d/.test(t) && (weights.get(t) ?? 0) >= specific && !lead.fact.terms.has(t),
  );
  if (missing.length > 0)
    caps.push({ code: 'focus_missing', detail: `the closest fact does not mention ${missing.slice(0, 3).map(word).join(', ')}` });
  return caps;
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
  if (leadExcludes !== null && hasException(lead.fact.text) && isCoverageQuestion(input.question.text))
    caps.push({ code: 'exclusion_exception', detail: `the closest fact is under "${leadExcludes}" but makes an exception` });
  if (excluding && leadExcludes === null)
    caps.push({ code: 'exclusion_outranks', detail: `a closer fact is listed under "${exclusionContext(excluding)}"` });
  if (lead.fact.score < best * LEAD_SCORE_SHARE)
    caps.push({ code: 'lead_not_best', detail: 'a better-matching fact does not lead the answer' });
  if (isLeadIn(lead.fact.text))
    caps.push({ code: 'lead_in_line', detail: 'the closest fact introduces a list or a link it does not hold' });
  return caps;
}

/**
 * A line that introduces content rather than stating it: it ends in a colon ("These include:"), or it only
 * points elsewhere ("Please refer to the following website", "visit the MOH website for the list").
 */
export function isLeadIn(text: string): boolean {
  const t = text.trim();
  if (/:$/.test(t)) return true;
  if (/^(?:please\s+)?(?:refer to|visit)\b.*\b(?:website|webpage|page|portal|site|link|list|table)\b/i.test(t)) return true;
  return /\b(?:as follows|the following(?: \w+){0,2})[.:]?$/i.test(t) && !/\d/.test(t);
}
