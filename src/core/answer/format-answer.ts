import { isFragment } from '../gate/answer-bearing.js';
import { excludedItem } from '../gate/exclusion.js';
import { questionFigures } from '../gate/focus-layer.js';
import type { EvidenceFact, QuestionAnalysis, ReasonCode, Verdict } from '../gate/types.js';
import { rangeFit } from '../text/number-ranges.js';
import { isCoverageQuestion } from '../text/question-kind.js';
import { contentTerms } from '../text/tokenize.js';

const REASON_TEXT: Record<ReasonCode, string> = {
  no_evidence: "I couldn't find anything about this in the knowledge base.",
  low_relevance: 'The knowledge base has nothing close enough to your question for me to answer it reliably.',
  // The layer's detail says it all: "the knowledge base never mentions "ADR-0050"".
  unknown_entity: '',
  low_coverage: "The closest facts I found don't cover what you're asking",
  low_margin: 'Several facts touch on this, but none of them answers your question specifically.',
  answer_type_mismatch: "I found related facts, but none of them states what you're asking for",
  number_out_of_range: 'The knowledge base gives this for other values, but not for the one you asked about',
  llm_unanswerable: "The facts I found don't answer this question.",
  ungrounded: "I drafted an answer, but could not back every part of it with the knowledge base, so I won't give it.",
  llm_unavailable: "I can't answer that right now: the language model is unavailable. Please try again later.",
  invalid_output: "I can't answer that right now: I could not produce a reliable answer. Please try again later.",
  unavailable: "I can't answer that right now because part of the system is unavailable. Please try again later.",
};

/** Plain-words reason for a refusal, with the layer's own detail where it adds something. */
export function explainRefusal(deciding: Verdict): string {
  const code = deciding.code !== null && deciding.code in REASON_TEXT ? (deciding.code as ReasonCode) : 'unavailable';
  const base = REASON_TEXT[code];
  if (base === '') return `${deciding.detail.charAt(0).toUpperCase()}${deciding.detail.slice(1)}.`;
  if (base.endsWith('.')) return base;
  return `${base}: ${deciding.detail}.`;
}

/**
 * Sections near the question that the KB does cover, so a refusal can point somewhere: the headings
 * of retrieved facts that share a content word with the question. An unrelated section is noise, and
 * none is better than a noisy one.
 */
export function nearbyTopics(facts: readonly EvidenceFact[], question: Pick<QuestionAnalysis, 'terms'>, max = 3): string[] {
  const asked = new Set(question.terms);
  const topics: string[] = [];
  for (const fact of facts) {
    const topic = fact.heading === null ? null : sectionName(fact.heading);
    if (topic === null || topic === '' || topics.includes(topic)) continue;
    if (!contentTerms(topic).some((term) => asked.has(term))) continue;
    topics.push(topic);
    if (topics.length === max) break;
  }
  return topics;
}

/** The refusal a user sees: why, and what nearby topics (see nearbyTopics) the KB does cover. */
export function formatRefusal(deciding: Verdict, topics: readonly string[]): string {
  const why = explainRefusal(deciding);
  if (topics.length === 0 || deciding.code === 'llm_unavailable' || deciding.code === 'unavailable') return why;
  return `${why}\nThe knowledge base does cover: ${topics.map((t) => `“${t}”`).join('; ')}.`;
}

/** The caveat a medium-confidence answer carries, with what made it uncertain. */
export function formatCaveat(doubts: readonly string[]): string {
  const why = doubts.length > 0 ? ` (${doubts.join('; ')})` : '';
  return `I'm not certain this answers your question${why}. This is the closest the knowledge base says; please check the source.`;
}

/**
 * The caveat of the extractive fallback: the model's draft could not be backed by the sources, so they are quoted
 * as they stand, with what else made the gate unsure.
 */
export function formatQuotedCaveat(doubts: readonly string[]): string {
  const why = doubts.length > 0 ? ` Also check: ${doubts.join('; ')}.` : '';
  return `I quoted the sources rather than summarising them: my summary could not be checked against them.${why} Please check the source.`;
}

/** What an extractive answer reads: the question's terms and, for its figures and kind, its text. */
type AskedQuestion = Pick<QuestionAnalysis, 'terms'> & Partial<Pick<QuestionAnalysis, 'text' | 'identifierText'>>;

/**
 * The facts an extractive answer uses, in the order it states them: the lead, then at most two facts of the
 * same passage that add to the same point (they share a question term, state something, and — when the
 * question names a figure — are not rows whose ranges leave it out). Exactly these are its sources.
 */
export function usedFacts(cited: readonly EvidenceFact[], question?: AskedQuestion): EvidenceFact[] {
  const [lead, ...rest] = cited;
  if (!lead) return [];
  const asked = new Set(question?.terms ?? []);
  const figures = question?.text !== undefined ? questionFigures({ ...question, text: question.text }) : [];
  const also = rest.filter(
    (fact) =>
      fact.passage === lead.passage &&
      !isFragment(fact) &&
      // In its own words: every fact of a section shares the section heading's terms.
      (asked.size === 0 || contentTerms(fact.text).some((t) => asked.has(t))) &&
      rangeFit(figures, fact.text) !== 'misses' &&
      // An item already in the lead (a list joined to its lead-in line) is not said twice.
      !lead.text.toLowerCase().includes(fact.text.toLowerCase()),
  );
  return [lead, ...also.slice(0, 2)];
}

/**
 * The extractive answer: one answer a person reads in its first line — the
 * leading fact as a sentence, a short item with the section that gives it its
 * meaning ("Exclusions: Cosmetic surgery"), or "No: …" when a coverage question
 * is answered by an exclusion — then the other used facts (see usedFacts) as
 * "Also:" lines. Sources are not in the text: every channel renders the
 * decision's evidence (exactly the used facts) as links.
 */
export function formatExtractiveAnswer(cited: readonly EvidenceFact[], question?: AskedQuestion): string {
  const [lead, ...also] = usedFacts(cited, question);
  if (!lead) return '';
  const no = question?.text !== undefined && isCoverageQuestion(question.text) ? answersNo(lead, question.terms) : null;
  return [no ?? statement(lead), ...also.map((fact) => `Also: ${statement(fact)}`)].join('\n');
}

/**
 * A coverage or permission question led by a fact that excludes: "No: “Cosmetic surgery” is listed under
 * “Exclusions”." for an item of an exclusions list (or the one item of a joined list the question names),
 * "No: <the sentence>" for a sentence that says "not eligible", "must not" and the like. Null when the fact
 * excludes nothing or the item makes an exception ("except", "unless"): then the evidence points both ways, and
 * the fact is shown as it stands.
 */
export function answersNo(fact: Pick<EvidenceFact, 'text' | 'heading'>, questionTerms: readonly string[] = []): string | null {
  const excluded = excludedItem(fact, questionTerms);
  if (excluded === null || excluded.exception) return null;
  const { item, context } = excluded;
  const fromHeading =
    fact.heading !== null && sectionName(fact.heading) !== '' && fact.heading.toLowerCase().includes(context.toLowerCase());
  if (!excluded.whole)
    return `No: “${item.replace(/[;,.]$/, '')}” is listed under “${fromHeading ? context : fact.text.split(':')[0]?.trim()}”.`;
  if (fromHeading && !/[.!?]$/.test(item)) return `No: “${item.replace(/[;,.]$/, '')}” is listed under “${context}”.`;
  return `No: ${statement(fact)}`;
}

/** A fact as a line a person reads: unwrapped from brackets, and a short item given its section's name. */
export function statement(fact: Pick<EvidenceFact, 'text' | 'heading'>): string {
  let text = fact.text.trim();
  if (/^\([^()]*\)$/.test(text)) text = text.slice(1, -1).trim();
  text = text.charAt(0).toUpperCase() + text.slice(1);
  const section = fact.heading === null ? '' : sectionName(fact.heading);
  // A "heading" ending in a glued footnote digit ("…primary cancers6") is a footnote the parser took for one.
  if (section !== '' && !/\p{L}\d$/u.test(section) && needsSection(text) && !text.toLowerCase().startsWith(section.toLowerCase()))
    return `${section}: ${text}`;
  return text;
}

/** A short item that is not a sentence ("Cosmetic surgery", "Class C ward: $2,000") reads only with its section. */
function needsSection(text: string): boolean {
  return text.split(/\s+/).length <= 8 && !/[.!?]$/.test(text) && !/\b(?:is|are|was|were|will|can|may|must|should|has|have)\b/i.test(text);
}

/** The innermost heading of a path, without its numbering: "3. Coverage > 3.2 How much is the premium?" → "How much is the premium?". */
export function sectionName(heading: string): string {
  const last = heading.split(' > ').pop() ?? heading;
  return last.replace(/^(?:\d{1,2}(?:\.\d{1,2})*\.?|[A-Z]\.)\s+/, '').trim();
}
