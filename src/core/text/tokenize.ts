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
  for (const match of unglue(text).matchAll(WORD)) {
    // Plural acronyms ("PRs", "AGMs") count as their singular.
    const raw = match[0]
      .replace(/^(\p{Lu}{2,})s$/u, '$1')
      .toLowerCase()
      .replace(/’/g, "'");
    const parts = raw.split(/[-'.]/).filter(Boolean);
    if (parts.length > 1) {
      const joined = parts.join('');
      if (/\d/.test(joined)) push(out, joined, joined);
    }
    for (const part of parts) {
      // A footnote marker glued to a word by PDF extraction ("ward2", "seniors1") is not part of the word.
      const word = FOOTNOTED.exec(part)?.[1] ?? part;
      push(out, word, stem(word));
    }
  }
  return out;
}

function push(out: Token[], word: string, term: string): void {
  if (STOPWORDS.has(word) || word.length === 1) return;
  out.push({ word, term });
}

/** Distinct content terms of a text, in first-seen order. */
export function contentTerms(text: string): string[] {
  return [...new Set(tokenize(text).map((t) => t.term))];
}
