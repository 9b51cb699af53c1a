import { figuresIn, rangeFit } from '../text/number-ranges.js';
import { contentTerms } from '../text/tokenize.js';
import { rankAnswerBearing, type AnswerBearing } from './answer-bearing.js';
import { numbersIn } from './answerability-features.js';
import { termWeights } from './coverage.js';
import { article } from './explain-score.js';
import type { GateInput, Verdict } from './types.js';

/**
 * A question term is part of its focus — the thing asked about — when it is
 * at least this specific: its IDF at least this share of the IDF of a term no
 * fact holds. Generic words of the KB ("claim", "pay", "limit") fall below it.
 */
export const FOCUS_SPECIFICITY = 0.6;

/** The fact an answer would lead with (see answer-bearing.ts), or undefined without evidence. */
export function leadOf(input: GateInput): AnswerBearing | undefined {
  return rankAnswerBearing(input.ranked, input.question, termWeights(input.question.terms, input.vocabulary))[0];
}

/**
 * The answer must state something of the kind asked: the fact that would
 * lead it must be a statement (not a heading or a label) and, when the
 * question asks for an amount, number, duration, date or party, hold one.
 * "What's the speed limit on expressways?" led by "(Vehicles should … drive
 * within the speed limit of the road)" is refused: it states no limit.
 */
export function focusLayer(input: GateInput): Verdict {
  const lead = leadOf(input);
  if (!lead) return { layer: 'focus', pass: true, code: null, detail: 'no evidence to check' };
  if (lead.fragment)
    return {
      layer: 'focus',
      pass: false,
      code: 'low_coverage',
      detail: 'the closest facts are headings or labels, not statements that answer it',
    };
  if (input.settings.checkAnswerType && !lead.typeHeld)
    return {
      layer: 'focus',
      pass: false,
      code: 'answer_type_mismatch',
      detail: `the question asks for ${article(input.question.expects ?? 'value')} and the closest fact states none`,
    };
  const outside = figureOutsideRanges(input, lead);
  if (outside !== null)
    return { layer: 'focus', pass: false, code: 'number_out_of_range', detail: `no retrieved fact states a range that holds ${outside}` };
  return { layer: 'focus', pass: true, code: null, detail: 'the leading fact states the kind of answer asked for' };
}

/**
 * The figure a question names ("entry age 105") when the leading fact is a row of ranges ("61 – 70", "30 and
 * below") none of which holds it, and no retrieved row of its table holds or states it: answering with a
 * neighbouring row would be wrong. Null otherwise.
 */
export function figureOutsideRanges(input: GateInput, lead: AnswerBearing): string | null {
  const figures = questionFigures(input.question);
  if (figures.length === 0 || rangeFit(figures, lead.fact.text) !== 'misses') return null;
  const stated = (text: string) => figures.some((x) => numbersIn(text).has(String(x)));
  // Rows of the lead's own table (passage): another table's row holding the figure answers another question.
  const rows = input.ranked.filter((fact) => fact.passage === lead.fact.passage);
  if (rows.some((fact) => rangeFit(figures, fact.text) === 'holds' || stated(fact.text))) return null;
  return figures.map((x) => x.toLocaleString('en-US')).join(', ');
}

/** The figures a question names, less the digits of its identifiers ("ADR-0050", "Form 12", "IR8A"). */
export function questionFigures(question: Pick<GateInput['question'], 'text' | 'identifierText'>): number[] {
  let text = question.text;
  for (const typed of Object.values(question.identifierText ?? {})) text = text.split(typed).join(' ');
  return figuresIn(text);
}

/**
 * What may keep an answer from being the one asked for, in words a person
 * reads: question words the KB never mentions ("cataract" in a claim-limit
 * question), and specific question words (the focus) the leading fact does
 * not hold, in any word form. A caveated answer names them; they do not set
 * the tier (measured on the shared sets, they flag right answers about as
 * often as wrong ones — the answerability score separates them better).
 */
export function doubtsAbout(input: GateInput): string[] {
  const { question, vocabulary } = input;
  const lead = leadOf(input);
  if (!lead) return [];
  const weights = termWeights(question.terms, vocabulary);
  const word = (t: string) => `"${question.wordOf?.[t] ?? t}"`;
  const byRarity = [...question.terms].sort((a, b) => (weights.get(b) ?? 0) - (weights.get(a) ?? 0));
  const doubts: string[] = [];
  const frame = frameTerms(question.text);
  const unknown = byRarity.filter((t) => !vocabulary.has(t) && !frame.has(t));
  if (unknown.length > 0) doubts.push(`the knowledge base never mentions ${unknown.slice(0, 3).map(word).join(', ')}`);
  const specific = vocabulary.unseenIdf() * FOCUS_SPECIFICITY;
  const missing = byRarity.filter(
    (t) => vocabulary.has(t) && !frame.has(t) && (weights.get(t) ?? 0) >= specific && !lead.fact.terms.has(t),
  );
  if (missing.length > 0) doubts.push(`the closest fact does not mention ${missing.slice(0, 3).map(word).join(', ')}`);
  return doubts;
}

/**
 * Words that frame a question rather than name its topic: the word after "how" ("how much", "how long",
 * "how fast") and the indefinite people it is asked for ("someone", "people"). A fact answers "how long"
 * with a duration, not with the word "long".
 */
export function frameTerms(text: string): Set<string> {
  const frame = new Set(contentTerms('someone somebody anyone anybody person people'));
  for (const [, word] of text.matchAll(/\bhow\s+([\p{L}]+)/giu)) for (const term of contentTerms(word ?? '')) frame.add(term);
  return frame;
}
