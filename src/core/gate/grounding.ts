import { extractIdentifiers } from '../text/analyse-question.js';
import { stem } from '../text/stem.js';
import type { Verdict } from './types.js';

/** A model's answer with the facts it says support it (1-based numbers of the evidence it was shown). */
export interface DraftAnswer {
  readonly answer: string;
  readonly citations: readonly number[];
}

/**
 * The grounding check after generation: every citation names a fact that was
 * retrieved, and every number, amount, date, identifier and name in the answer
 * appears in the facts it cites. Anything else is a claim the knowledge base
 * does not back, and the answer is withheld (`ungrounded`).
 */
export function checkGrounding(draft: DraftAnswer, evidence: readonly { readonly text: string }[]): Verdict {
  const fail = (detail: string): Verdict => ({ layer: 'grounding', pass: false, code: 'ungrounded', detail });
  if (draft.citations.length === 0) return fail('the answer cites no fact');
  const unknown = draft.citations.filter((n) => !Number.isInteger(n) || n < 1 || n > evidence.length);
  if (unknown.length > 0) return fail(`the answer cites ${unknown.map((n) => `[${n}]`).join(', ')}, which were not retrieved`);
  const cited = draft.citations.map((n) => evidence[n - 1]?.text ?? '').join('\n');

  const citedNumbers = new Set(numbersIn(cited));
  const missingNumbers = numbersIn(draft.answer).filter((n) => !citedNumbers.has(n));
  const citedIds = new Set(extractIdentifiers(cited));
  const missingIds = extractIdentifiers(draft.answer).filter((id) => !citedIds.has(id));
  const citedWords = new Set(wordsIn(cited).map(stem));
  const missingNames = namesIn(draft.answer).filter((name) => !citedWords.has(stem(name.toLowerCase())));
  const missing = [...new Set([...missingNumbers, ...missingIds, ...missingNames])];
  if (missing.length > 0)
    return fail(
      `the cited facts do not state ${missing
        .slice(0, 5)
        .map((m) => `"${m}"`)
        .join(', ')}`,
    );
  return { layer: 'grounding', pass: true, code: null, detail: 'every claim in the answer is in the facts it cites' };
}

/**
 * Numbers as values: "$1,500.00" and "1500" are the same; "30%" is 30;
 * list markers and citation brackets ("[2]") are not claims.
 */
export function numbersIn(text: string): string[] {
  const out: string[] = [];
  const withoutCitations = text.replace(/\[\d+\]/g, ' ');
  for (const match of withoutCitations.matchAll(/\d[\d,]*(?:\.\d+)?/g)) {
    const raw = match[0].replace(/,(?=\d{3}\b)/g, '').replace(/,$/, '');
    const value = Number(raw);
    if (Number.isFinite(value)) out.push(String(value));
  }
  return out;
}

function wordsIn(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

const NOT_NAMES = new Set(['I', 'The', 'A', 'An', 'If', 'You', 'Your', 'Yes', 'No', 'This', 'These', 'It', 'For', 'To', 'In', 'On', 'As']);

/** Capitalised words that do not start a sentence: names, places, schemes, months. */
function namesIn(text: string): string[] {
  const names: string[] = [];
  for (const sentence of text.replace(/\[\d+\]/g, ' ').split(/(?<=[.!?:;])\s+|\n+/)) {
    const words = sentence.trim().split(/\s+/).slice(1);
    for (const raw of words) {
      const word = raw.replace(/^[^\p{L}]+|[^\p{L}\p{N}]+$/gu, '').replace(/['’]s$/, '');
      if (/^\p{Lu}[\p{L}]+$/u.test(word) && !NOT_NAMES.has(word)) names.push(word);
    }
  }
  return names;
}
