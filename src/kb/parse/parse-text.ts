import { FactCollector, HeadingStack } from './facts.js';
import { BARE_NUMBER, isValueLine, LIST_ITEM, NUMBERED_HEADING, PAGE_NUMBER, TABLE_CAPTION } from './line-shapes.js';
import { normaliseWhitespace } from './normalise.js';
import { paragraphNumbers, type ParagraphStart } from './paragraph-numbers.js';
import { wordCount } from './split-sentences.js';
import type { TextTable } from './text-blocks.js';
import { readColumns } from './text-columns.js';
import { readGrid } from './text-grid.js';
import { TextRows } from './text-rows.js';
import type { ParsedDocument } from './types.js';

const ENDS_CLAUSE = /[.,;:]$/;
const ENDS_SENTENCE = /[.!?:]$/;
/** A dropped page-number line: it ends a paragraph but, unlike a blank line, does not make its neighbours stand alone. */
const DROPPED = '\u0000';
const RANK_TITLE = 0;
const RANK_CAPS = 10;
const RANK_WEAK = 11;
/** How many lines at the top and bottom of a page may be its running header or footer. */
const PAGE_EDGE_LINES = 3;

interface Heading {
  text: string;
  rank: number;
  /** Lines consumed (a numbered heading may wrap onto a second line). */
  lines: number;
}

/**
 * Plain text: blank lines separate paragraphs, wrapped lines are joined, list
 * lines become one fact each, headings are numbered, ALL CAPS or short lines
 * standing alone; page numbers, paragraph numbers ("91 Vehicles which…") and
 * lines repeated 3+ times (running headers and footers) are dropped. Tables
 * flattened one cell per line (text-grid.ts, text-columns.ts) and label–value
 * rows (label-value.ts) are one fact per row, wherever a block may start.
 */
export function parseText(content: string): ParsedDocument {
  const { lines, cells } = prepareLines(content);
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
    if (startsBlock || previous === DROPPED || nothingOpen || ENDS_SENTENCE.test(previous) || TABLE_CAPTION.test(line)) {
      const table = readGrid(cells, i) ?? readColumns(cells, i);
      if (table !== null) {
        flush();
        closeOrphan();
        if (table.caption !== null) headings.push(i === firstLine ? RANK_TITLE : RANK_WEAK, table.caption);
        if (i === firstLine) title = table.caption;
        addTable(facts, table, headings.path);
        i = table.end - 1;
        continue;
      }
    }
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

function addTable(facts: FactCollector, table: TextTable, heading: string | null): void {
  for (const note of table.notes) facts.addParagraph(note, heading);
  for (const row of table.rows) facts.addFact(row, heading, { row: true });
}

/**
 * The document's lines twice, index for index: `lines` as the paragraph reader
 * sees them (page numbers marked DROPPED), and `cells` as table readers do,
 * where a number alone is a cell ("51", "3") unless it stands first or last on
 * a page. Running headers are blank in both; paragraph numbers are stripped
 * from both, with a blank line before them where their paragraph starts.
 */
function prepareLines(content: string): { lines: string[]; cells: string[] } {
  const source = content.replace(/\r\n?/g, '\n').split('\n');
  const raw = source.map(normaliseWhitespace);
  const repeated = repeatedLines(raw);
  const edges = pageEdges(raw, source, PAGE_EDGE_LINES);
  const outermost = pageEdges(raw, source, 1);
  // tables see repeated lines unless one stands at a page's edge, as running headers do: a repeated cell stays;
  // and numbers alone unless one is a page's first or last line, as page numbers are: "3" may be a cell
  const running = new Set([...edges].map((i) => raw[i]!).filter((line) => repeated.has(line)));
  let lines = raw.map((line) => (repeated.has(line) ? '' : PAGE_NUMBER.test(line) ? DROPPED : line));
  let cells = raw.map((line, i) =>
    running.has(line) || (PAGE_NUMBER.test(line) && (outermost.has(i) || !BARE_NUMBER.test(line))) ? '' : line,
  );
  const numbered = paragraphNumbers(
    lines,
    (i) => paragraphStart(lines, i),
    (i) => lineBefore(lines, i),
  );
  if (numbered.size === 0) return { lines, cells };
  // a short label between a sentence and a numbered paragraph ("…in front.", "Pedestrians", "209 Keep away…") heads it
  const labels = new Set(
    [...numbered.keys()].map((i) => i - 1).filter((j) => isShortLabel(lines[j] ?? '') && paragraphStart(lines, j) === 'clear'),
  );
  const outLines: string[] = [];
  const outCells: string[] = [];
  lines.forEach((line, i) => {
    const rest = numbered.get(i);
    if ((rest !== undefined || labels.has(i)) && outLines.length > 0 && outLines[outLines.length - 1] !== '') {
      outLines.push('');
      outCells.push('');
    }
    outLines.push(rest ?? line);
    outCells.push(rest ?? cells[i]!);
  });
  lines = outLines;
  cells = outCells;
  return { lines, cells };
}

function isShortLabel(line: string): boolean {
  return /^\p{Lu}/u.test(line) && wordCount(line) <= 5 && !/[.,;:!?]$/.test(line) && !isValueLine(line);
}

/** The line before `i` in the same paragraph (a page number between them skipped), or '' at a paragraph's start. */
function lineBefore(lines: readonly string[], i: number): string {
  let j = i - 1;
  while (lines[j] === DROPPED) j--;
  return lines[j] ?? '';
}

function paragraphStart(lines: readonly string[], i: number): ParagraphStart {
  const previous = lines[i - 1] ?? '';
  if (previous === '' || previous === DROPPED || /[.!?:;)]$/.test(previous)) return 'clear';
  if (/\p{Lu}{2}/u.test(previous) && !/\p{Ll}/u.test(previous)) return 'clear'; // a heading in capitals
  return wordCount(previous) <= 8 ? 'after-label' : 'none';
}

/**
 * The first and last `count` lines of each page (pages end with a form feed;
 * a file without one is a page): where page numbers and running headers stand.
 */
function pageEdges(lines: readonly string[], source: readonly string[], count: number): Set<number> {
  const edges = new Set<number>();
  const mark = (from: number, step: 1 | -1): void => {
    let found = 0;
    for (let i = from; i >= 0 && i < lines.length && found < count; i += step) {
      if (step === 1 && i > from && source[i]!.includes('\f')) return;
      if (lines[i] === '') continue;
      edges.add(i);
      found += 1;
      if (step === -1 && source[i]!.includes('\f')) return;
    }
  };
  mark(0, 1);
  mark(lines.length - 1, -1);
  source.forEach((line, i) => {
    if (!line.includes('\f')) return;
    mark(i, -1);
    mark(i + 1, 1);
  });
  return edges;
}

/**
 * Lines (up to 12 words) that occur 3+ times verbatim: running headers and footers. Values ("$620 per
 * treatment") and numbers alone (a table's "3", "3", "3") repeat in tables and stay.
 */
function repeatedLines(lines: readonly string[]): Set<string> {
  const counts = new Map<string, number>();
  for (const line of lines) {
    if (line !== '' && wordCount(line) <= 12 && !isValueLine(line) && !PAGE_NUMBER.test(line))
      counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, count]) => count >= 3).map(([line]) => line));
}
