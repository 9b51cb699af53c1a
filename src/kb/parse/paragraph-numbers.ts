import { wordCount } from './split-sentences.js';

/** "91 Vehicles which…": a number, then a capitalised word. */
const NUMBERED = /^(\d{1,4})\s+(?=\p{Lu})/u;
/** "1 April 2025" is a date, not paragraph 1. */
const MONTH = /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i;
/** A line ending mid-phrase ("a total of") runs on into the next: a number there is part of the sentence. */
const ENDS_OPEN =
  /(?:[-–—,&/(]|\b(?:and|or|of|for|the|to|in|on|at|by|with|from|between|than|within|a|an|per|is|are|be|about|over|under))$/i;
/** Paragraph numbers may skip a few (a paragraph numbered on a line of its own, a figure). */
const MAX_STEP = 5;
/** How far back a counter is looked for: paragraphs are numbered in order, not from afar. */
const LOOK_BACK = 64;

/**
 * How a line stands as the start of a paragraph: `clear` after a blank line, a
 * sentence end or a heading; `after-label` after a short line such as a
 * caption ("Bus Lanes"); `none` inside running text.
 */
export type ParagraphStart = 'clear' | 'after-label' | 'none';

/**
 * The lines that open with a paragraph number, mapped to the line without it.
 * A number counts when it is followed by a capitalised word (not a month) and
 * at least one more word, or by one word in capitals (a heading), the line before does not run on into it, and the
 * numbers behave like a running counter through the document: the longest run
 * of them that increases by 1 to 5 at a time. A document with one such number
 * only (a page of a handbook) has it stripped where it clearly opens a
 * paragraph: after a blank line, a sentence or a heading, or after a short
 * label when a sentence follows. Two or more numbers that never count up are
 * not paragraph numbers ("3 Adults" and "2 Children" stay). Pure.
 */
export function paragraphNumbers(
  lines: readonly string[],
  startOf: (index: number) => ParagraphStart,
  previousLine: (index: number) => string,
): Map<number, string> {
  const candidates: Array<{ index: number; number: number; rest: string }> = [];
  lines.forEach((line, index) => {
    const match = NUMBERED.exec(line);
    if (match === null) return;
    const rest = line.slice(match[0].length);
    const heading = /^\p{Lu}{3,}$/u.test(rest); // "165 LIGHTS"
    if ((wordCount(rest) < 2 && !heading) || MONTH.test(rest) || ENDS_OPEN.test(previousLine(index))) return;
    candidates.push({ index, number: Number(match[1]), rest });
  });
  const chain = longestCounter(candidates.map((c) => c.number));
  let kept: typeof candidates;
  if (chain.length >= 2) kept = chain.map((at) => candidates[at]!);
  else if (candidates.length === 1) kept = candidates.filter((c) => opensParagraph(startOf(c.index), c.rest));
  else kept = [];
  return new Map(kept.map((c) => [c.index, c.rest]));
}

function opensParagraph(start: ParagraphStart, rest: string): boolean {
  if (start === 'clear') return true;
  // after a short label only a sentence ("53 Vehicles other than…"), not a name ("10 Ubi Avenue 3")
  return start === 'after-label' && wordCount(rest) >= 4 && /\s\p{Ll}/u.test(rest);
}

/** Indexes of the longest subsequence where each number is 1 to MAX_STEP above the one before. */
function longestCounter(numbers: readonly number[]): number[] {
  const length = numbers.map(() => 1);
  const before = numbers.map(() => -1);
  let best = -1;
  for (let j = 0; j < numbers.length; j++) {
    for (let i = Math.max(0, j - LOOK_BACK); i < j; i++) {
      const step = numbers[j]! - numbers[i]!;
      if (step >= 1 && step <= MAX_STEP && length[i]! + 1 > length[j]!) {
        length[j] = length[i]! + 1;
        before[j] = i;
      }
    }
    if (best < 0 || length[j]! > length[best]!) best = j;
  }
  const chain: number[] = [];
  for (let at = best; at >= 0; at = before[at]!) chain.unshift(at);
  return chain;
}
