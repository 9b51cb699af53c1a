import { FactCollector, HeadingStack } from './facts.js';
import { isValueLine, LIST_ITEM, NUMBERED_HEADING, PAGE_NUMBER, withoutListMarker } from './line-shapes.js';
import { paragraphNumbers, type ParagraphStart } from './paragraph-numbers.js';
import { groupLines, roundSize, type PdfLine, type PdfPageText } from './pdf-lines.js';
import { PdfTable } from './pdf-table.js';
import { wordCount } from './split-sentences.js';
import type { ParsedDocument } from './types.js';

export interface ParsedPdf extends ParsedDocument {
  /** Pages with no text at all: scanned images, most likely. */
  readonly emptyPages: readonly number[];
}

/** A line this much larger than body text is a heading. */
const HEADING_SCALE = 1.15;
/** Lines closer than this many font sizes (baseline to baseline) belong to one paragraph or table. */
const PARAGRAPH_GAP = 1.6;
const TABLE_GAP = 2.6;
const BULLET = /^[•●▪◦○■□]\s*/;
const CAPTION = /^(?:table|figure|exhibit|schedule)\s+[\p{L}\p{N}][\p{L}\p{N}.-]*\b/iu;

interface Block {
  kind: 'paragraph' | 'item';
  text: string;
  readonly page: number;
}

/**
 * A PDF's pages as facts. Lines come from text positions (pdf-lines.ts);
 * headings are lines larger than body text, bold lines at body size, or
 * numbered lines standing alone ("2.1 Claims"), nested by size, weight and
 * numbering depth; lines with column gaps are table rows (pdf-table.ts), kept
 * whole with their column headers and the table's caption in the heading path;
 * other lines join into paragraphs (split into sentences) and list items.
 * Page numbers and running headers/footers are dropped. Every fact keeps its
 * page. Pure.
 */
export function parsePdf(pages: readonly PdfPageText[]): ParsedPdf {
  const all = pages.flatMap(groupLines);
  const running = runningLines(all, pages.length);
  const { lines, restarts } = withoutParagraphNumbers(
    all.filter((line) => !(line.cells.length === 1 && PAGE_NUMBER.test(line.cells[0]!.text)) && !running.has(lineKey(line))),
  );
  const style = bodyStyle(lines);
  const facts = new FactCollector();
  const headings = new HeadingStack();
  let title: string | null = null;
  let block: Block | null = null;
  let table: PdfTable | null = null;
  let caption: string | null = null;

  const flushBlock = (): void => {
    if (block?.kind === 'paragraph') facts.addParagraph(block.text, headings.path, { page: block.page });
    else if (block?.kind === 'item') facts.addFact(block.text, headings.path, { page: block.page });
    block = null;
  };
  const flushTable = (): void => {
    const path = caption === null ? headings.path : [headings.path, caption].filter((part) => part !== null).join(' > ');
    for (const row of table?.facts() ?? []) facts.addFact(row.text, path, { row: true, page: row.page });
    table = null;
    caption = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    const previous = lines[i - 1];
    const gap = previous?.page === line.page ? (previous.y - line.y) / Math.max(line.size, previous.size) : Infinity;
    if (line.cells.length >= 2) {
      flushBlock();
      if (table !== null && gap <= TABLE_GAP) (table as PdfTable).addRow(line);
      else {
        flushTable();
        caption = captionBefore(previous, line);
        table = new PdfTable(line);
      }
      continue;
    }
    const text = line.cells[0]!.text;
    if (table !== null) {
      const nextIsRow = next !== undefined && next.page === line.page && next.cells.length >= 2;
      if (gap <= TABLE_GAP && (table as PdfTable).attach(line, nextIsRow)) continue;
      flushTable();
    }
    const rank = headingRank(line, previous, next, style);
    if (rank !== null) {
      flushBlock();
      let heading = text;
      while (i + 1 < lines.length && continuesHeading(line, lines[i + 1]!, style)) heading = `${heading} ${lines[++i]!.cells[0]!.text}`;
      headings.push(rank, heading);
      title ??= heading;
      continue;
    }
    const close = !restarts.has(i) && gap <= PARAGRAPH_GAP && Math.abs(roundSize(line.size) - roundSize(previous?.size ?? 0)) < 1;
    const marker = LIST_ITEM.test(text) || BULLET.test(text);
    const current = block as Block | null;
    if (!marker && close && current !== null && !CAPTION.test(text)) {
      current.text = `${current.text} ${text}`;
      continue;
    }
    flushBlock();
    block = { kind: marker ? 'item' : 'paragraph', text: marker ? withoutListMarker(text.replace(BULLET, '')) : text, page: line.page };
  }
  flushBlock();
  flushTable();
  const emptyPages = pages.filter((page) => page.runs.length === 0).map((page) => page.page);
  return { ...facts.result(title), emptyPages };
}

/** Lines with paragraph numbers ("91 Vehicles which…") stripped (paragraph-numbers.ts), and those lines, which start a paragraph. */
function withoutParagraphNumbers(lines: readonly PdfLine[]): { lines: PdfLine[]; restarts: Set<number> } {
  const textOf = (line: PdfLine | undefined): string => (line?.cells.length === 1 ? line.cells[0]!.text : '');
  const startOf = (i: number): ParagraphStart => {
    const line = lines[i]!;
    const previous = lines[i - 1];
    if (previous === undefined || previous.page !== line.page || (previous.y - line.y) / line.size > PARAGRAPH_GAP) return 'clear';
    const text = textOf(previous);
    if (/[.!?:;)]$/.test(text) || (/\p{Lu}{2}/u.test(text) && !/\p{Ll}/u.test(text))) return 'clear';
    return text !== '' && wordCount(text) <= 8 ? 'after-label' : 'none';
  };
  const numbered = paragraphNumbers(lines.map(textOf), startOf, (i) => textOf(lines[i - 1]));
  const out = lines.map((line, i) => {
    const rest = numbered.get(i);
    return rest === undefined ? line : { ...line, cells: [{ ...line.cells[0]!, text: rest }] };
  });
  return { lines: out, restarts: new Set(numbered.keys()) };
}

interface BodyStyle {
  readonly size: number;
  readonly bold: boolean;
  readonly largest: number;
}

/** The size (and weight) of most characters: body text. */
function bodyStyle(lines: readonly PdfLine[]): BodyStyle {
  const chars = new Map<number, number>();
  let boldChars = 0;
  let total = 0;
  for (const line of lines) {
    const n = line.cells.reduce((sum, cell) => sum + cell.text.length, 0);
    chars.set(roundSize(line.size), (chars.get(roundSize(line.size)) ?? 0) + n);
  }
  const size = [...chars].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  for (const line of lines) {
    if (roundSize(line.size) !== size) continue;
    const n = line.cells.reduce((sum, cell) => sum + cell.text.length, 0);
    total += n;
    if (line.bold) boldChars += n;
  }
  return { size, bold: boldChars > total / 2, largest: Math.max(size, ...lines.map((line) => roundSize(line.size))) };
}

/**
 * The heading rank of a one-cell line, or null when it is not a heading.
 * Larger sizes rank first (lower); within a size, numbering depth (an
 * un-numbered heading counts as depth 1).
 */
function headingRank(line: PdfLine, previous: PdfLine | undefined, next: PdfLine | undefined, body: BodyStyle): number | null {
  const text = line.cells[0]!.text;
  if (line.cells.length !== 1 || !/\p{L}{2}/u.test(text) || wordCount(text) > 16 || /[.;,]$/.test(text)) return null;
  const numbered = NUMBERED_HEADING.exec(text);
  if (numbered === null && (LIST_ITEM.test(text) || BULLET.test(text))) return null;
  const depth = numbered === null ? 1 : numbered[1]!.replace(/\.$/, '').split('.').length;
  const larger = roundSize(line.size) >= body.size * HEADING_SCALE;
  const bold = line.bold && !body.bold && roundSize(line.size) >= body.size;
  // "1. Fill in the form / 2. Attach receipts" is a numbered list: a numbered line next to another is an item
  const inSequence = [previous, next].some((other) => other?.page === line.page && NUMBERED_HEADING.test(other.cells[0]?.text ?? ''));
  const numberedAlone = numbered !== null && wordCount(text) <= 10 && !/:$/.test(text) && next !== undefined && !inSequence;
  if (!larger && !bold && !numberedAlone) return null;
  return Math.round((body.largest - roundSize(line.size)) * 2) * 10 + depth;
}

/** The next line wraps the same heading: same page, size and weight, close below, not numbered itself. */
function continuesHeading(line: PdfLine, next: PdfLine, body: BodyStyle): boolean {
  const text = next.cells[0]?.text ?? '';
  return (
    next.cells.length === 1 &&
    next.page === line.page &&
    roundSize(next.size) === roundSize(line.size) &&
    next.bold === line.bold &&
    (line.y - next.y) / line.size <= PARAGRAPH_GAP &&
    !NUMBERED_HEADING.test(text) &&
    headingRank(next, undefined, undefined, body) !== null
  );
}

/** A "Table 3: …" line right above a table names it. */
function captionBefore(previous: PdfLine | undefined, first: PdfLine): string | null {
  const text = previous?.cells.length === 1 ? previous.cells[0]!.text : '';
  return previous?.page === first.page && CAPTION.test(text) ? text : null;
}

/**
 * Running headers and footers: among the first and last two lines of each
 * page, those repeated on at least half the pages (3 or more), digits ignored
 * ("Page 3 of 9"); values are kept.
 */
function runningLines(lines: readonly PdfLine[], pageCount: number): Set<string> {
  if (pageCount < 3) return new Set();
  const pages = new Map<string, Set<number>>();
  const margins = lines.filter((line, i) => lines[i - 2]?.page !== line.page || lines[i + 2]?.page !== line.page);
  for (const line of margins) {
    if (line.cells.length !== 1 || wordCount(line.cells[0]!.text) > 12 || isValueLine(line.cells[0]!.text)) continue;
    const key = lineKey(line);
    pages.set(key, (pages.get(key) ?? new Set()).add(line.page));
  }
  const needed = Math.max(3, Math.ceil(pageCount / 2));
  return new Set([...pages].filter(([, on]) => on.size >= needed).map(([key]) => key));
}

function lineKey(line: PdfLine): string {
  return line.cells.map((cell) => cell.text.replace(/\d+/g, '#')).join('\u0001');
}
