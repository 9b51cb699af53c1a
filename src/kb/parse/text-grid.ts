import { renderHeadedRow } from './facts.js';
import { BARE_NUMBER, isBand, isLabelLine, LIST_ITEM, TABLE_CAPTION, withoutListMarker } from './line-shapes.js';
import { wordCount } from './split-sentences.js';
import { BlockReader, isCellValue, readCaption, type Block, type TextTable } from './text-blocks.js';
import { resolveHeaders } from './text-grid-headers.js';

type Kind = 'value' | 'band' | 'label' | 'other';

interface Cell {
  readonly text: string;
  readonly kind: Kind;
  readonly block: number;
  /** The block's last cell: a row ends with a block, never inside one. */
  readonly last: boolean;
  /** The block's only cell. */
  readonly alone: boolean;
}

interface Row {
  readonly label: Cell;
  readonly values: readonly Cell[];
}

const MAX_BLOCKS = 400;
const MAX_HEADER_BLOCKS = 24;
const MAX_CELL_LINES = 6;
const MAX_CELL_WORDS = 12;
const MAX_LABEL_WORDS = 14;

/**
 * A table flattened one cell per block (cells apart by blank lines), read row
 * by row: a label (text, or a band of numbers such as "31 – 40") and the same
 * number of values each time (a single value spans the row), after header
 * cells and, often, a "Table B: …" caption. The header cells are matched to
 * the columns by count: one per column, repeated for tables set side by side;
 * or, when the headers hold their own figures ("$0 - $1,500"), those figures
 * are the column headers. Read only after a caption or from a band label, the
 * shapes no simpler reader takes; null for anything else. Pure.
 */
export function readGrid(lines: readonly string[], start: number): TextTable | null {
  const caption = readCaption(lines, start);
  if (caption === null && !bandAhead(lines, start)) return null;
  const from = caption?.end ?? start;
  const reader = new BlockReader(
    lines,
    from,
    MAX_BLOCKS,
    (block) => isProse(block) || (block.start > from && TABLE_CAPTION.test(block.lines[0]!)),
  );
  const cells = new LazyCells(lines, reader);
  let first = 0;
  for (; cells.at(first) !== undefined && cells.at(first)!.block < MAX_HEADER_BLOCKS; first++) {
    if (isRowLabel(cells.at(first)!) && cells.at(first + 1)?.kind === 'value') break;
  }
  const firstLabel = cells.at(first);
  // without a caption, only band labels ("31 – 40") mark a table no other reader takes
  if (firstLabel === undefined || firstLabel.block >= MAX_HEADER_BLOCKS || (caption === null && firstLabel.kind !== 'band')) return null;
  const rows = readRows(cells, first);
  if (rows.length < 2) return null;
  const width = Math.max(...rows.map((row) => row.values.length));
  const headerBlocks = Array.from({ length: firstLabel.block }, (_, b) => reader.at(b)!.lines);
  if (headerBlocks.some((block) => block.length > MAX_CELL_LINES)) return null;
  const headers = resolveHeaders(headerBlocks, caption?.tail ?? [], width);
  const title = caption === null ? null : [caption.title, ...caption.rest, ...headers.captionRest].join(' ');
  const texts = rows.map((row, r) => {
    const group = headers.groups[r % headers.groups.length]!;
    const spans = row.values.length !== width;
    return renderHeadedRow({
      title,
      rowHeader: group.row,
      label: withoutListMarker(row.label.text),
      headers: spans ? null : group.values,
      values: row.values.map((value) => value.text),
    });
  });
  const lastRow = rows[rows.length - 1]!;
  return {
    caption: title,
    notes: [...(caption?.notes ?? []), ...headers.loose],
    rows: texts,
    end: reader.at(lastRow.values[lastRow.values.length - 1]!.block)!.end,
  };
}

/** A band line ("31 – 40") within the blocks a table without a caption may start with: a cheap look before reading cells. */
function bandAhead(lines: readonly string[], start: number): boolean {
  let blocks = 0;
  for (let i = start; i < lines.length && blocks <= MAX_HEADER_BLOCKS; i++) {
    const line = lines[i]!;
    if (line === '') {
      if (lines[i - 1] !== '') blocks += 1;
    } else if (isBand(line) || (isBand(`${line} ${lines[i + 1] ?? ''}`) && lines[i + 1] !== '')) return true;
    else if (wordCount(line) > MAX_CELL_WORDS) return false;
  }
  return false;
}

/** The cells of a BlockReader's blocks, read as far as they are asked for. */
class LazyCells {
  private readonly cells: Cell[] = [];
  private blocks = 0;

  constructor(
    private readonly lines: readonly string[],
    private readonly reader: BlockReader,
  ) {}

  at(c: number): Cell | undefined {
    while (this.cells.length <= c) {
      const block = this.reader.at(this.blocks);
      if (block === undefined) return undefined;
      this.cells.push(...cellsOf(this.lines, block, this.blocks));
      this.blocks += 1;
    }
    return this.cells[c];
  }
}

/** Cells by the line their block starts at, per document: the grid is tried at many lines of one document. */
const cellCache = new WeakMap<readonly string[], Map<number, readonly Cell[]>>();

function cellsOf(lines: readonly string[], block: Block, index: number): Cell[] {
  let byStart = cellCache.get(lines);
  if (byStart === undefined) cellCache.set(lines, (byStart = new Map()));
  let cells = byStart.get(block.start);
  if (cells === undefined) byStart.set(block.start, (cells = toCells(block)));
  return cells.map((cell) => ({ ...cell, block: index }));
}

/** A block of values one per line is that many cells; any other block is one cell, its lines joined. */
function toCells(block: Block, index = 0): Cell[] {
  const { lines } = block;
  if (lines.length >= 2 && lines.every(isCellValue)) {
    return lines.map((text, i) => ({ text, kind: 'value', block: index, last: i === lines.length - 1, alone: false }));
  }
  const text = lines.join(' ');
  // a list item below the first line ("Daily ward charges" / "- Normal ward") is a group and its row, not one cell
  const many = lines.length > MAX_CELL_LINES || lines.slice(1).some((line) => LIST_ITEM.test(line));
  return [{ text, kind: many ? 'other' : kindOf(text), block: index, last: true, alone: lines.length === 1 }];
}

function kindOf(text: string): Kind {
  if (isCellValue(text)) return 'value';
  if (isBand(text)) return 'band';
  const label = withoutListMarker(text);
  if (isLabelLine(label) || (/\p{L}{2}/u.test(label) && wordCount(label) <= MAX_LABEL_WORDS && !/[.;!?]$/.test(label))) return 'label';
  return 'other';
}

function isRowLabel(cell: Cell): boolean {
  return cell.kind === 'label' || cell.kind === 'band';
}

/** A block of running text ends the table: a long line, or a sentence. */
function isProse(block: Block): boolean {
  return block.lines.some(
    (line) => wordCount(line) > MAX_CELL_WORDS || (/[.!?]$/.test(line) && wordCount(line) > 3 && !LIST_ITEM.test(line)),
  );
}

/**
 * Rows from cell `first`: a label and the values after it, up to the first
 * cell that is neither. Every row has the most common number of values, or
 * one that spans the row; the table ends before a row that has neither.
 */
function readRows(cells: LazyCells, first: number): Row[] {
  const rows: Row[] = [];
  let c = first;
  for (let label = cells.at(c); label !== undefined && isRowLabel(label); label = cells.at(c)) {
    const values: Cell[] = [];
    let v = c + 1;
    while (cells.at(v)?.kind === 'value') values.push(cells.at(v++)!);
    if (values.length === 0 || !values[values.length - 1]!.last) break;
    rows.push({ label, values });
    c = v;
  }
  if (rows.length < 2) return rows;
  // the last row may end in a footnote mark ("10%", then "1" above the footnote): the rows before set the width
  const counts = new Map<number, number>();
  for (const row of rows.slice(0, -1)) counts.set(row.values.length, (counts.get(row.values.length) ?? 0) + 1);
  const width = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const last = rows[rows.length - 1]!;
  const mark = last.values[last.values.length - 1]!;
  if (last.values.length === width + 1 && BARE_NUMBER.test(mark.text) && mark.alone)
    rows[rows.length - 1] = { ...last, values: last.values.slice(0, -1) };
  const odd = rows.findIndex((row) => row.values.length !== width && row.values.length !== 1);
  return odd < 0 ? rows : rows.slice(0, odd);
}
