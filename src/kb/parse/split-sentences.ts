import { normaliseWhitespace } from './normalise.js';

/** Tokens that end in a period without ending a sentence (compared lower-cased, final period removed). */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'viz',
  'cf',
  'al',
  'approx',
  'ca',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'no',
  'nos',
  'fig',
  'figs',
  'vol',
  'pp',
  'p',
  'v',
  'inc',
  'ltd',
  'co',
  'corp',
  'dept',
  'govt',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'u.s',
  'u.k',
  'a.m',
  'p.m',
]);
const TERMINATORS = '.!?…';
const CLOSERS = ')]"\'”’»';
const SENTENCE_START = /[\p{Lu}\p{N}"'“‘([]/u;
const MAX_WORDS = 80;
const MIN_WORDS = 3;

/**
 * Splits a paragraph into sentences. Abbreviations, decimals, initials, ellipses
 * and text inside matched brackets or quotes do not end a sentence; "word.Next"
 * (scraped text with the space lost) does. Fragments under three words are
 * merged into the next sentence, fragments of only digits and punctuation are
 * dropped, and sentences over 80 words are split at "; ".
 */
export function splitSentences(paragraph: string): string[] {
  const text = restoreMissingSpaces(normaliseWhitespace(paragraph));
  if (text === '') return [];
  const protectedRanges = matchedPairs(text);
  const raw: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!TERMINATORS.includes(text[i] ?? '')) continue;
    let end = i;
    while (end < text.length && TERMINATORS.includes(text[end] ?? '')) end++;
    const run = text.slice(i, end);
    while (end < text.length && CLOSERS.includes(text[end] ?? '')) end++;
    const at = i;
    i = end - 1;
    if (text[end] !== ' ' || !SENTENCE_START.test(text[end + 1] ?? '')) continue;
    if (run.includes('..') || run.includes('…')) continue; // ellipsis
    if (run === '.' && isAbbreviationOrInitial(text, at, start)) continue;
    if (protectedRanges.some(([open, close]) => open < at && close >= end)) continue;
    raw.push(text.slice(start, end));
    start = end + 1;
  }
  raw.push(text.slice(start));
  return mergeShortFragments(raw.map((s) => s.trim()).filter((s) => s !== '')).flatMap(splitLong);
}

/** "account.If you" → "account. If you", only when the left side is a lower-case word of 2+ letters. */
function restoreMissingSpaces(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}.@/_\\-])(\p{Ll}{2,})\.(?=\p{Lu})(\S*)/gu, (whole, word: string, rest: string) =>
    rest.includes('@') || rest.includes('/') ? whole : `${word}. ${rest}`,
  );
}

function isAbbreviationOrInitial(text: string, periodAt: number, sentenceStart: number): boolean {
  let from = periodAt;
  while (from > sentenceStart && !/\s/.test(text[from - 1] ?? '')) from--;
  const token = text.slice(from, periodAt).replace(/^[("'“‘[]+/, '');
  if (ABBREVIATIONS.has(token.toLowerCase())) return true;
  if (/^\p{Lu}$/u.test(token)) return true; // initial: "J. Smith"
  if (/^(?:\p{L}\.)+\p{L}$/u.test(token)) return true; // "U.S.A", "e.g"
  // an enumeration marker opening the sentence: "1. Introduction", "iv. Scope"
  return from === sentenceStart && /^(?:\d{1,3}|[a-z]|[ivx]{1,4})$/i.test(token);
}

/** Index pairs of matched brackets and quotes; a sentence boundary never falls strictly inside one. */
function matchedPairs(text: string): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  const stack: Array<[string, number]> = [];
  let straightQuote = -1;
  const closing: Record<string, string> = { ')': '(', ']': '[', '”': '“' };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '(' || ch === '[' || ch === '“') stack.push([ch, i]);
    else if (ch in closing) {
      const at = stack.findLastIndex(([open]) => open === closing[ch]);
      if (at >= 0) {
        pairs.push([stack[at]![1], i]);
        stack.length = at;
      }
    } else if (ch === '"') {
      if (straightQuote < 0) straightQuote = i;
      else {
        pairs.push([straightQuote, i]);
        straightQuote = -1;
      }
    }
  }
  return pairs;
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** True when a fragment has no letters at all: page numbers, prices on their own, stray punctuation. */
export function isOnlyNumbersOrPunctuation(text: string): boolean {
  return !/\p{L}/u.test(text);
}

function mergeShortFragments(sentences: string[]): string[] {
  const out: string[] = [];
  let carry = '';
  for (const sentence of sentences) {
    if (isOnlyNumbersOrPunctuation(sentence)) continue;
    const joined = carry === '' ? sentence : `${carry} ${sentence}`;
    if (wordCount(sentence) < MIN_WORDS) carry = joined;
    else {
      out.push(joined);
      carry = '';
    }
  }
  if (carry !== '') {
    if (out.length > 0) out[out.length - 1] = `${out[out.length - 1]} ${carry}`;
    else out.push(carry);
  }
  return out;
}

function splitLong(sentence: string): string[] {
  if (wordCount(sentence) <= MAX_WORDS || !sentence.includes('; ')) return [sentence];
  const parts: string[] = [];
  for (const part of sentence.split('; ')) {
    const last = parts[parts.length - 1];
    if (last !== undefined && wordCount(last) < MIN_WORDS) parts[parts.length - 1] = `${last}; ${part}`;
    else parts.push(part);
  }
  const tail = parts[parts.length - 1];
  if (parts.length > 1 && tail !== undefined && wordCount(tail) < MIN_WORDS) {
    parts.pop();
    parts[parts.length - 1] = `${parts[parts.length - 1]}; ${tail}`;
  }
  return parts;
}
