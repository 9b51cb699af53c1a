import { rangeFit } from '../text/number-ranges.js';
import { isCoverageQuestion } from '../text/question-kind.js';
import { tokenize } from '../text/tokenize.js';
import { numbersIn } from './answerability-features.js';
import { coverage } from './coverage.js';
import { exclusionContext } from './exclusion.js';
import { expectedValueIn } from './expected-value.js';
import type { EvidenceFact, QuestionAnalysis } from './types.js';

/** How well one retrieved fact states what was asked, and why. */
export interface AnswerBearing {
  readonly fact: EvidenceFact;
  /** Higher states the answer better; a fragment is below every non-fragment. */
  readonly score: number;
  /** IDF-weighted share of the question's terms in the fact's words, its section heading and its document's name. */
  readonly covers: number;
  /** The fact holds the kind of value asked for (or the question asks for none). */
  readonly typeHeld: boolean;
  /** A heading, a bare row label or a short phrase without a verb or a value: never an answer on its own. */
  readonly fragment: boolean;
}

/**
 * What makes a fact the answer, in order of weight: it holds the question's
 * terms (rare ones weigh most: the focus), in its own words more than
 * through its heading, it holds the kind of value asked
 * for (amount, number, duration, date, party), a number the question names
 * falls in it (an age in a table's age band), and retrieval ranked it high.
 * Fragments — a section heading, a row label, a caption — rank below every
 * fact that states something, so they never lead.
 */
export function rankAnswerBearing(
  ranked: readonly EvidenceFact[],
  question: QuestionAnalysis,
  weights: ReadonlyMap<string, number>,
): AnswerBearing[] {
  // The focus rule, the caveat and the citations of one ask all read the same ranking: computed once.
  const seen = computed.get(ranked);
  if (seen?.question === question) return seen.ranking;
  const ranking = rank(ranked, question, weights);
  computed.set(ranked, { question, ranking });
  return ranking;
}

const computed = new WeakMap<readonly EvidenceFact[], { question: QuestionAnalysis; ranking: AnswerBearing[] }>();

function rank(ranked: readonly EvidenceFact[], question: QuestionAnalysis, weights: ReadonlyMap<string, number>): AnswerBearing[] {
  const top = ranked[0]?.score ?? 0;
  const asked = numbersIn(question.text);
  // A coverage or permission question is answered "no" by an item under Exclusions ("Cosmetic surgery"), a label alone elsewhere.
  const asksCover = isCoverageQuestion(question.text);
  const scored = ranked.map((fact, rank): AnswerBearing => {
    const covers = coverage(question.terms, weights, fact.terms);
    // Stating the question's terms itself, not through its heading: a heading says what a section is about, not the answer.
    const own = coverage(question.terms, weights, new Set(tokenize(fact.text).map((t) => t.term)));
    const typeHeld = question.expects === null || expectedValueIn(question.expects, fact.text);
    const excludes = asksCover && exclusionContext(fact) !== null;
    const fragment = isFragment(fact) && !excludes;
    const fits = numberFit(asked, fact.text);
    const retrieval = top > 0 ? fact.score / top : 0;
    const score =
      covers +
      own +
      0.5 * (excludes || isAnswerShaped(question, fact, typeHeld) ? 1 : 0) +
      0.5 * fits +
      0.25 * retrieval -
      (leansOnContext(fact.text) ? 0.3 : 0) -
      0.001 * rank - // ties keep retrieval order
      (fragment ? 10 : 0);
    return { fact, score, covers, typeHeld, fragment };
  });
  return scored.sort((a, b) => b.score - a.score);
}

/**
 * A sentence that opens by pointing back ("However, …", "This …", "For example, …") leans on the one
 * before it: it makes a poorer first line than one that stands alone.
 */
export function leansOnContext(text: string): boolean {
  return /^(?:however|therefore|thus|hence|also|in addition|otherwise|this|these|that|those|it|they|such|for example|for instance|e\.g\.)\b/i.test(
    text.trim(),
  );
}

/** A fact holding the asked-for value counts only when the question asks for one; otherwise stating a sentence is enough. */
function isAnswerShaped(question: QuestionAnalysis, fact: EvidenceFact, typeHeld: boolean): boolean {
  return question.expects !== null ? typeHeld : /\p{Ll}{2}/u.test(fact.text) && wordsIn(fact.text) >= 6;
}

/**
 * 1 when a number the question names lies in a range the fact states ("35" in "31 – 40", "age 85" in
 * "81 and above", "$12,000" in "above $10,000"; see number-ranges.ts), 0.5 when the fact states the number
 * itself, 0 otherwise (or when the question names none).
 */
export function numberFit(asked: ReadonlySet<string>, text: string): number {
  if (asked.size === 0) return 0;
  const xs = [...asked].map(Number).filter(Number.isFinite);
  if (rangeFit(xs, text) === 'holds') return 1;
  const stated = numbersIn(text);
  return [...asked].some((n) => stated.has(n)) ? 0.5 : 0;
}

/**
 * A heading-only line, a bare label or a caption: no verb-bearing clause and no value, or the text of its own
 * section heading. "Cosmetic surgery" under "Exclusions" says nothing alone; "Class C ward: $2,000" does.
 */
export function isFragment(fact: Pick<EvidenceFact, 'text' | 'heading'>): boolean {
  const text = fact.text.trim();
  const last = fact.heading?.split(' > ').pop()?.trim().toLowerCase();
  if (last !== undefined && text.toLowerCase() === last) return true;
  const words = wordsIn(text);
  if (/\d/.test(text) && words >= 2 && /[:—=]|\$|%|\d\s*\p{L}/u.test(text)) return false;
  if (/[.!?]$/.test(text) && words >= 3) return false;
  // A label and its value ("Lifetime: No Limit") states something; a label alone ("Bill above Claim Limits") does not.
  if (/^[^:]{2,80}:\s*\S/.test(text)) return false;
  if (words <= 4) return true;
  // Title Case or ALL CAPS lines without a sentence's small words are headings cut loose from their section.
  const small = text.match(/\b(?:is|are|was|were|be|will|can|may|must|should|has|have|do|does|if|for|to|of|the|a|an)\b/gi)?.length ?? 0;
  return small === 0 && words <= 8;
}

function wordsIn(text: string): number {
  return tokenize(text).length + (text.match(/\b(?:is|are|the|a|an|of|to|for|if)\b/gi)?.length ?? 0);
}
