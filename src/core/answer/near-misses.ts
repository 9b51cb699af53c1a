import { isFragment } from '../gate/answer-bearing.js';
import { coverage, termWeights } from '../gate/coverage.js';
import { expectedValueIn } from '../gate/expected-value.js';
import type { ExpectedAnswer, GateInput } from '../gate/types.js';

/**
 * A retrieved fact a refusal did not use, as the refusal's interaction row keeps it: what it says, how it
 * scored, and why it did not answer on its own — what a KB owner reads to see how close the KB came.
 */
export interface NearMiss {
  /** The fact's external id when it has one, else its store id. */
  readonly factId: string;
  readonly text: string;
  readonly source: string;
  /** L2R score: similarity × confidence (what retrieval ranked by). */
  readonly score: number;
  readonly similarity: number;
  readonly confidence: number;
  /** Cosine similarity to the question, when vector retrieval ran. */
  readonly cosine?: number;
  /** IDF-weighted share of the question's terms the fact (with its heading) holds, in [0, 1]. */
  readonly covers: number;
  /** The question's words (as typed) the fact does not hold. */
  readonly missing: readonly string[];
  /** Why it did not suffice, in plain words, strongest first; empty when nothing about the fact alone tells. */
  readonly why: readonly string[];
}

/** What a fact lacks when the question asks for a kind of value it does not hold. */
const LACKS: Readonly<Record<ExpectedAnswer, string>> = {
  amount: 'states no amount, though the question asks how much',
  number: 'states no number, though the question asks how many',
  date: 'states no date or time, though the question asks when',
  party: 'names no person or body, though the question asks who',
  duration: 'states no duration, though the question asks how long',
};

/**
 * The best `max` retrieved facts (retrieval order) with why each fell short of answering: question words it
 * lacks, an identifier of the question it does not name, no value of the kind asked for, a heading or
 * fragment rather than a statement, a low confidence. Pure: reads only the gate's input.
 */
export function nearMisses(input: Pick<GateInput, 'question' | 'ranked' | 'vocabulary'>, max = 5): NearMiss[] {
  const { question } = input;
  const weights = termWeights(question.terms, input.vocabulary);
  return input.ranked.slice(0, max).map((fact) => {
    const missingTerms = question.terms.filter((term) => !fact.terms.has(term));
    const missing = missingTerms.map((term) => question.wordOf?.[term] ?? term);
    const ids = question.identifiers.filter((id) => !fact.terms.has(`#${id}`)).map((id) => question.identifierText?.[id] ?? id);
    const why: string[] = [];
    if (ids.length > 0) why.push(`does not name ${quoted(ids)}`);
    if (missing.length > 0 && missing.length === question.terms.length) why.push('shares no content word with the question');
    else if (missing.length > 0)
      why.push(`does not mention ${quoted(missing.slice(0, 4))}${missing.length > 4 ? ` (+${missing.length - 4} more)` : ''}`);
    if (question.expects !== null && !expectedValueIn(question.expects, fact.text)) why.push(LACKS[question.expects]);
    if (isFragment(fact)) why.push('a heading or fragment, not a statement');
    if (fact.confidence < 0.8) why.push(`its confidence is low (${round(fact.confidence)})`);
    return {
      factId: fact.externalId ?? String(fact.factId),
      text: fact.text,
      source: fact.source,
      score: round(fact.score),
      similarity: round(fact.similarity),
      confidence: round(fact.confidence),
      ...(fact.cosine === undefined ? {} : { cosine: round(fact.cosine) }),
      covers: round(coverage(question.terms, weights, fact.terms)),
      missing,
      why,
    };
  });
}

function quoted(words: readonly string[]): string {
  const q = words.map((w) => `"${w}"`);
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
