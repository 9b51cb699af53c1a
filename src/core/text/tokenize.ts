import { stem } from './stem.js';
import { STOPWORDS } from './stopwords.js';

/** A word as written (lower-cased) and the term it counts as. */
export interface Token {
  readonly word: string;
  readonly term: string;
}

/** Three or more lower-case letters and one digit: a word with its footnote marker. */
const FOOTNOTED = /^(\p{Ll}{3,})\d$/u;

const WORD = /[\p{L}\p{N}]+(?:[-'’.][\p{L}\p{N}]+)*/gu;

/**
 * Scraped text glues sentences ("account.If you") and links ("oure-serviceswith");
 * a lower-case letter followed by "." and an upper-case letter is a boundary.
 */
function unglue(text: string): string {
  return text.replace(/([a-z]{2})\.([A-Z])/g, '$1. $2');
}

/** Splits text into tokens; hyphenated and dotted compounds also yield their parts. */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  scan(text, (word, term) => out.push({ word, term }));
  return out;
}

/** The terms of `tokenize(text)`, in order, without the token objects (indexing reads only these). */
export function tokenTerms(text: string): string[] {
  const out: string[] = [];
  scan(text, (_word, term) => out.push(term));
  return out;
}

const PLURAL_ACRONYM = /^(\p{Lu}{2,})s$/u;
const PART_SEPARATOR = /[-'.]/;

function scan(text: string, emit: (word: string, term: string) => void): void {
  for (const match of unglue(text).matchAll(WORD)) scanWord(match[0], emit);
}

/**
 * Calls `each` with every word of the text as written (before it is lower-cased and split): the terms of
 * all of them, `wordTerms` of each in turn, are `tokenTerms(text)`. An index caches terms per written word.
 */
export function forEachWord(text: string, each: (written: string) => void): void {
  for (const match of unglue(text).matchAll(WORD)) each(match[0]);
}

/** The terms one written word counts as (none for a stop word; a compound's parts, and its digits joined). */
export function wordTerms(written: string): string[] {
  const out: string[] = [];
  scanWord(written, (_word, term) => out.push(term));
  return out;
}

function scanWord(written: string, emit: (word: string, term: string) => void): void {
  let raw = written;
  // Plural acronyms ("PRs", "AGMs") count as their singular.
  if (raw.length > 2 && raw.endsWith('s') && PLURAL_ACRONYM.test(raw)) raw = raw.slice(0, -1);
  raw = raw.toLowerCase();
  if (raw.includes('’')) raw = raw.replace(/’/g, "'");
  if (!PART_SEPARATOR.test(raw)) {
    emitPart(raw, emit);
    return;
  }
  const parts = raw.split(/[-'.]/).filter(Boolean);
  if (parts.length > 1) {
    const joined = parts.join('');
    if (/\d/.test(joined)) emitWord(joined, joined, emit);
  }
  for (const part of parts) emitPart(part, emit);
}

function emitPart(part: string, emit: (word: string, term: string) => void): void {
  // A footnote marker glued to a word by PDF extraction ("ward2", "seniors1") is not part of the word.
  const last = part.charCodeAt(part.length - 1);
  const word = last >= 48 && last <= 57 ? (FOOTNOTED.exec(part)?.[1] ?? part) : part;
  emitWord(word, null, emit);
}

/** Emits a word that is not a stop word or a single character, as `term` (its stem when null). */
function emitWord(word: string, term: string | null, emit: (word: string, term: string) => void): void {
  if (word.length === 1 || STOPWORDS.has(word)) return;
  emit(word, term ?? stem(word));
}

/** Distinct content terms of a text, in first-seen order. */
export function contentTerms(text: string): string[] {
  return [...new Set(tokenize(text).map((t) => t.term))];
}
