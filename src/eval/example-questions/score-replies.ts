import type { Confidence } from '../../ask/decision.js';
import type { ExampleQuestion } from './example-questions.js';

/** What a question's reply came to: the four cells of answered/refused × answerable/not. */
export type Outcome = 'right-answer' | 'wrong-answer' | 'false-refusal' | 'right-refusal';

/** The parts of a Decision the scoring reads (a Decision is one). */
export interface ScoredDecision {
  readonly decision: 'answer' | 'abstain';
  readonly answer: string | null;
  readonly refusal: string | null;
  readonly reasons: readonly { readonly code?: string | null | undefined }[];
  readonly confidence?: Confidence;
  readonly caveat?: string | null;
  readonly answerability?: { readonly score: number } | undefined;
}

export interface ScoredRow {
  readonly id: string;
  readonly question: string;
  readonly answerable: boolean;
  readonly decision: 'answer' | 'abstain';
  /** The deciding reason code of a refusal; null for an answer. */
  readonly reason: string | null;
  /** The first line a person reads (a content-free lead-in such as "From the knowledge base:" is passed over). */
  readonly firstLine: string;
  readonly outcome: Outcome;
  /** Answerable questions: the expected strings the first line lacks. */
  readonly missing?: readonly string[];
  /** A wrong answer to an answerable question: whether the expected strings are further down the reply. */
  readonly expectedInReply?: boolean;
  /** The Decision's confidence tier, when it reports one. */
  readonly confidence: Confidence | null;
  /** The caveat a medium-confidence answer carries (why it is uncertain). */
  readonly caveat?: string | null;
  /** The answerability score. */
  readonly score?: number | null;
  /** Unanswerable questions: the don't-know category. */
  readonly category?: string;
}

/** The reply text a person sees, as `candor ask` renders it. */
export function replyText(d: ScoredDecision): string {
  return d.decision === 'answer' ? (d.answer ?? '') : `I don't know. ${d.refusal ?? ''}`;
}

/** A short line ending in a colon with no figures in it introduces the answer rather than giving it. */
const LEAD_IN = /^[^\d$%]*:$/;

/** The first non-empty line of a reply, passing over one content-free lead-in line. */
export function firstLine(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const [first = '', second] = lines;
  const leadIn = LEAD_IN.test(first) && first.split(/\s+/).length <= 6;
  return leadIn && second !== undefined ? second : first;
}

/** Case-insensitive, with hyphens and dashes read as spaces and runs of whitespace folded to one. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[-\u2010-\u2015]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const isDigit = (c: string | undefined) => c !== undefined && /\d/.test(c);

/**
 * Whether `line` holds `expected` (folded): starting at a word boundary, so "half" is not found in
 * "behalf" nor "2 years" in "12 years", and with no digit running on after a number, so "$2,000" is
 * not found in "$2,0001". A word may run on ("12 month" is found in "12 months").
 */
export function containsExpected(line: string, expected: string): boolean {
  const haystack = foldText(line);
  const needle = foldText(expected);
  if (needle === '') return false;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const startsInsideWord = isWordChar(needle[0]) && isWordChar(haystack[at - 1]);
    const numberRunsOn = isDigit(needle[needle.length - 1]) && isDigit(haystack[at + needle.length]);
    if (!startsInsideWord && !numberRunsOn) return true;
  }
  return false;
}

/** Scores one reply: right only when every expected string is in the first line a person reads. */
export function scoreReply(q: ExampleQuestion, d: ScoredDecision): ScoredRow {
  const text = replyText(d);
  const line = firstLine(text);
  const common = {
    id: q.id,
    question: q.question,
    answerable: q.answerable,
    decision: d.decision,
    reason: d.decision === 'abstain' ? (d.reasons[0]?.code ?? 'unknown') : null,
    firstLine: line,
    confidence: d.confidence ?? null,
    caveat: d.decision === 'answer' ? (d.caveat ?? null) : null,
    score: d.answerability?.score ?? null,
  };
  if (!q.answerable) return { ...common, outcome: d.decision === 'answer' ? 'wrong-answer' : 'right-refusal', category: q.category };
  if (d.decision === 'abstain') return { ...common, outcome: 'false-refusal', missing: q.expected };
  const missing = q.expected.filter((e) => !containsExpected(line, e));
  if (missing.length === 0) return { ...common, outcome: 'right-answer', missing };
  return { ...common, outcome: 'wrong-answer', missing, expectedInReply: q.expected.every((e) => containsExpected(text, e)) };
}
