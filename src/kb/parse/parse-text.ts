import { FactCollector, HeadingStack } from './facts.js';
import { isValueLine, LIST_ITEM, NUMBERED_HEADING, PAGE_NUMBER } from './line-shapes.js';
import { normaliseWhitespace } from './normalise.js';
import { wordCount } from './split-sentences.js';
import { TextRows } from './text-rows.js';
import type { ParsedDocument } from './types.js';

const ENDS_CLAUSE = /[.,;:]$/;
const ENDS_SENTENCE = /[.!?:]$/;
/** A dropped page-number line: it ends a paragraph but, unlike a blank line, does not make its neighbours stand alone. */
const DROPPED = '\u0000';
const RANK_TITLE = 0;
const RANK_CAPS = 10;
const RANK_WEAK = 11;

interface Heading {
  text: string;
  rank: number;
  /** Lines consumed (a numbered heading may wrap onto a second line). */
  lines: number;
}

/**
 * Plain text: blank lines separate paragraphs, wrapped lines are joined, list
 * lines become one fact each, headings are numbered, ALL CAPS or short lines
 * standing alone; page numbers and lines repeated 3+ times (running headers
 * and footers) are dropped. Label–value rows (a short label run, then a value
 * line; see label-value.ts) are one fact each, wherever a block may start.
 */
export function parseText(content: string): ParsedDocument {
  const raw = content.replace(/\r\n?/g, '\n').split('\n').map(normaliseWhitespace);
  const repeated = repeatedLines(raw);
  const lines = raw.map((line) => (repeated.has(line) ? '' : PAGE_NUMBER.test(line) ? DROPPED : line));
  const facts = new FactCollector();
  const headings = new HeadingStack();
  let title: string | null = null;
  let paragraph: string[] = [];
  let item: string | null = null;
  let orphan: { text: string; parent: string | null; factsBefore: number } | null = null;
  const rows = new TextRows();

  const flush = (): void => {
    if (paragraph.length > 0) facts.addParagraph(paragraph.join(' '), headings.path);
    if (item !== null) facts.addFact(item, headings.path);
    paragraph = [];
    item = null;
  };
  const closeOrphan = (): void => {
    // a short stand-alone line followed by no text was a caption, not a heading: keep it as a fact
    if (orphan !== null && facts.count === orphan.factsBefore) facts.addFact(orphan.text, orphan.parent);
    orphan = null;
  };

  const firstLine = lines.findIndex((line) => line !== '' && line !== DROPPED);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '' || line === DROPPED) {
      flush();
      continue;
    }
    const previous = lines[i - 1] ?? '';
    const startsBlock = previous === '';
    const nothingOpen = paragraph.length === 0 && item === null;
    if (startsBlock || previous === DROPPED || LIST_ITEM.test(line) || rows.follows(lines, i)) {
      const found = rows.read(lines, i);
      if (found !== null) {
        flush();
        for (const text of found.texts) facts.addFact(text, headings.path, { row: true });
        i = found.end - 1;
        continue;
      }
    }
    const heading = detectHeading(lines, i, i === firstLine, startsBlock || nothingOpen || ENDS_SENTENCE.test(previous));
    if (heading !== null) {
      flush();
      closeOrphan();
      headings.push(heading.rank, heading.text);
      if (heading.rank === RANK_WEAK) orphan = { text: heading.text, parent: headings.parentPath, factsBefore: facts.count };
      if (i === firstLine) title = heading.text;
      i += heading.lines - 1;
      continue;
    }
    const marker = LIST_ITEM.exec(line);
    if (marker !== null) {
      flush();
      item = line.slice(marker[0].length);
    } else if (item !== null && (!ENDS_SENTENCE.test(item) || /^\p{Ll}/u.test(line))) {
      item = `${item} ${line}`; // wrapped list item
    } else {
      if (item !== null) flush();
      paragraph.push(line);
    }
  }
  flush();
  closeOrphan();
  return facts.result(title);
}

function detectHeading(lines: readonly string[], i: number, isFirstLine: boolean, mayStart: boolean): Heading | null {
  const line = lines[i] ?? '';
  const next = lines[i + 1] ?? '';
  if (!mayStart || !/\p{L}{2}/u.test(line)) return null;
  const numbered = NUMBERED_HEADING.exec(line);
  if (numbered !== null && !ENDS_CLAUSE.test(line) && wordCount(line) <= 16) {
    const depth = numbered[1]!.replace(/\.$/, '').split('.').length;
    // "4. Foo" followed by more list lines is a numbered list, not a heading
    if (depth === 1 && LIST_ITEM.test(next)) return null;
    if (/^\p{Ll}/u.test(next) && !/[?!]$/.test(line) && wordCount(line) + wordCount(next) <= 20) {
      return { text: `${line} ${next}`, rank: depth, lines: 2 };
    }
    return { text: line, rank: depth, lines: 1 };
  }
  if (wordCount(line) > 8 || ENDS_CLAUSE.test(line) || LIST_ITEM.test(line)) return null;
  const letters = line.replace(/\P{L}/gu, '').length;
  if (letters >= 3 && /\p{Lu}{2}/u.test(line) && !/\p{Ll}/u.test(line)) return { text: line, rank: RANK_CAPS, lines: 1 };
  if (!/^[\p{Lu}\p{N}"“]/u.test(line) || /^[\p{N}$€£¥%.,\s-]+$/u.test(line.split(' ')[0] ?? '')) return null;
  if (isFirstLine && !/^\p{Ll}/u.test(next)) return { text: line, rank: RANK_TITLE, lines: 1 };
  const standsAlone = (lines[i - 1] ?? '') === '' && next === '';
  return standsAlone ? { text: line, rank: RANK_WEAK, lines: 1 } : null;
}

/** Lines (up to 12 words) that occur 3+ times verbatim: running headers and footers. Values ("$620 per treatment") repeat in tables and stay. */
function repeatedLines(lines: readonly string[]): Set<string> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    if (line !== '' && wordCount(line) <= 12 && !isValueLine(line)) counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, count]) => count >= 3).map(([line]) => line));
}
